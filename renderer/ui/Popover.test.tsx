import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Popover } from './Popover.tsx';

function press(element: Element, key: string) {
  fireEvent.keyDown(element, { key });
  fireEvent.keyUp(element, { key });
}

describe('Popover', () => {
  it('opens from the keyboard as a named dialog with focus inside, and Escape hands focus back', async () => {
    render(
      <>
        <Popover label="Ayuda del campo" title="Código de cuenta de cotización">
          <p>Son 11 dígitos: provincia, número y control.</p>
          <a href="https://www.seg-social.es">Más información</a>
        </Popover>
        <button type="button">Después</button>
      </>,
    );
    const trigger = screen.getByRole('button', { name: 'Ayuda del campo' });
    act(() => trigger.focus());
    press(trigger, 'Enter');
    const dialog = await screen.findByRole('dialog', { name: 'Código de cuenta de cotización' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(dialog.textContent).toContain('Son 11 dígitos');

    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('is named by its label when it has no title', async () => {
    render(
      <Popover label="Filtros">
        <p>Solo con errores</p>
      </Popover>,
    );
    const trigger = screen.getByRole('button', { name: 'Filtros' });
    act(() => trigger.focus());
    press(trigger, ' ');
    expect(await screen.findByRole('dialog', { name: 'Filtros' })).toBeTruthy();
  });
});
