import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { Modal, preloadModal } from './Modal.tsx';

afterEach(cleanup);
// The dialog is a lazy chunk; on a busy machine its first import can outlast findByRole's second.
beforeAll(() => preloadModal());

function backdropOf(dialog: HTMLElement): HTMLElement {
  const backdrop = dialog.closest<HTMLElement>('.ui-modal-backdrop');
  if (!backdrop) throw new Error('no backdrop around the dialog');
  return backdrop;
}

/** React Aria closes on an outside press: pointer down then up on the backdrop. */
function pressOn(element: HTMLElement) {
  fireEvent.pointerDown(element, { button: 0, pointerId: 1, pointerType: 'mouse' });
  fireEvent.mouseDown(element, { button: 0 });
  fireEvent.pointerUp(element, { button: 0, pointerId: 1, pointerType: 'mouse' });
  fireEvent.mouseUp(element, { button: 0 });
  fireEvent.click(element, { button: 0 });
}

function Harness({ onClose = () => {} }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Abrir</button>
      <Modal
        open={open}
        title="Elige fecha y hora"
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        footer={<button type="button">Programar tarea</button>}
      >
        <label>
          Hora
          <input />
        </label>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('renders nothing while closed', () => {
    render(<Harness />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens as a labelled modal dialog with focus inside', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige fecha y hora' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });

  it('closes on Escape and gives focus back to the opener', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Abrir' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    // React Aria hands focus back on the next frame.
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('keeps Tab inside the dialog, in both directions', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    const dialog = await screen.findByRole('dialog');
    const close = screen.getByRole('button', { name: 'Cerrar' });
    const last = screen.getByRole('button', { name: 'Programar tarea' });

    last.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);

    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('closes from its close button', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cannot be dismissed when dismissable is false: no close button, Escape or backdrop click', async () => {
    const onClose = vi.fn();
    render(
      <Modal open title="Actualización obligatoria" onClose={onClose} dismissable={false}>
        <p>Cierra la aplicación.</p>
      </Modal>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Actualización obligatoria' });
    expect(screen.queryByRole('button', { name: 'Cerrar' })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    pressOn(backdropOf(dialog));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('closes on a backdrop click when dismissable', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }));
    pressOn(backdropOf(await screen.findByRole('dialog')));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('Modal body that scrolls (issue 43: axe scrollable-region-focusable at 390 px)', () => {
  it('takes focus and is named by the title only while its content is taller than it', async () => {
    // jsdom lays nothing out: the body's heights are what a phone would measure.
    let contentHeight = 900;
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('ui-modal__body') ? contentHeight : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('ui-modal__body') ? 500 : 0;
    });
    function Long() {
      const [text, setText] = useState('Campos');
      return (
        <Modal open title="Notificación" onClose={() => undefined}>
          <p>{text}</p>
          <button type="button" onClick={() => setText('Más corto')}>Acortar</button>
        </Modal>
      );
    }
    render(<Long />);
    const body = await screen.findByRole('region', { name: 'Notificación' });
    expect(body.classList.contains('ui-modal__body')).toBe(true);
    expect(body.getAttribute('tabindex')).toBe('0');
    // The content shrinks below the body: no tab stop that scrolls nothing.
    contentHeight = 400;
    fireEvent.click(screen.getByRole('button', { name: 'Acortar' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Notificación' })).toBeNull());
    expect(document.querySelector('.ui-modal__body')?.hasAttribute('tabindex')).toBe(false);
    vi.restoreAllMocks();
  });
});
