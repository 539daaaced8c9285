import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Menu } from './Menu.tsx';

/** React Aria presses on key down and releases on key up, like a real keyboard. */
function press(element: Element, key: string) {
  fireEvent.keyDown(element, { key });
  fireEvent.keyUp(element, { key });
}

const actions = [
  { id: 'run', label: 'Ejecutar ahora' },
  { id: 'schedule', label: 'Programar' },
  { id: 'archive', label: 'Archivar', disabled: true },
  { id: 'delete', label: 'Eliminar', danger: true },
];

describe('Menu', () => {
  it('opens from the keyboard on the first action, skips disabled ones and runs the chosen one', async () => {
    const onAction = vi.fn();
    render(<Menu label="Acciones del robot" actions={actions} onAction={onAction} />);
    const button = screen.getByRole('button', { name: 'Acciones del robot' });
    act(() => button.focus());
    press(button, 'ArrowDown');
    const menu = await screen.findByRole('menu', { name: 'Acciones del robot' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.textContent).toBe('Ejecutar ahora');

    press(document.activeElement ?? menu, 'ArrowDown');
    expect(document.activeElement?.textContent).toBe('Programar');
    press(document.activeElement ?? menu, 'ArrowDown');
    // 'Archivar' is disabled: the focus goes past it.
    expect(document.activeElement?.textContent).toBe('Eliminar');
    expect(screen.getByRole('menuitem', { name: 'Archivar' }).getAttribute('aria-disabled')).toBe('true');

    press(document.activeElement ?? menu, 'Enter');
    expect(onAction).toHaveBeenCalledWith('delete');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('closes on Escape without running anything', async () => {
    const onAction = vi.fn();
    render(<Menu label="Acciones del robot" actions={actions} onAction={onAction} />);
    const button = screen.getByRole('button', { name: 'Acciones del robot' });
    act(() => button.focus());
    press(button, 'Enter');
    const menu = await screen.findByRole('menu');
    press(document.activeElement ?? menu, 'Escape');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(onAction).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(button));
  });
});
