import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { jsonResponse, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { AutopilotDock } from './AutopilotDock.tsx';
import { PANEL_OPEN_STORAGE_KEY } from './openState.ts';
import { NOW, eachTestAtNow, fakeAutopilotBridge, schedule, snapshot, stubApi, task } from './test/fixtures.ts';

// The panel and the badge are lazy chunks; load them before the first test waits on them.
beforeAll(async () => {
  await Promise.all([import('./AutopilotPanel.tsx'), import('./AutopilotBadge.tsx')]);
});
eachTestAtNow();
afterEach(() => vi.restoreAllMocks());

function renderDock({ desktop }: { desktop: ReturnType<typeof fakeAutopilotBridge> | null }) {
  return renderWithApp(<AutopilotDock />, {
    embedded: desktop !== null,
    bridge: desktop?.bridge,
    toasts: true,
    preloadedState: signedInState(),
  });
}

const backdrop = (dialog: HTMLElement) => {
  const element = dialog.closest<HTMLElement>('.autopilot-backdrop');
  if (!element) throw new Error('no backdrop around the panel');
  return element;
};

describe('the floating button', () => {
  it("reads 'Piloto automático' in the desktop app, with a badge of the tasks not done", async () => {
    const desktop = fakeAutopilotBridge(snapshot({ tasks: [task({ id: 'a' }), task({ id: 'b' }), task({ id: 'c', done: true })] }));
    renderDock({ desktop });
    const button = await screen.findByRole('button', { name: 'Piloto automático (2 tareas pendientes)' });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.querySelector('.autopilot-dock__badge')?.textContent).toBe('2');
    // Closed, the panel does not tell the desktop to run its loop.
    expect(desktop.argsOf('SetAutopilotPanelOpen')).toEqual([]);
  });

  it('follows the Autopilot event: the badge counts what the desktop says now', async () => {
    const desktop = fakeAutopilotBridge(snapshot({ tasks: [task()] }));
    renderDock({ desktop });
    await screen.findByRole('button', { name: 'Piloto automático (1 tarea pendiente)' });
    desktop.emit(snapshot({ tasks: [task({ done: true })], at: '2025-03-10T10:00:05.000Z' }));
    await screen.findByRole('button', { name: 'Piloto automático' });
  });

  it("reads 'Robots programados' on the web, the badge counting the user's schedules", async () => {
    const calls = stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [schedule(), schedule({ _id: 'other' })] }) });
    renderDock({ desktop: null });
    await screen.findByRole('button', { name: 'Robots programados (2 tareas pendientes)' });
    expect(calls).toContain('GET /api/browserflow/schedule?user=ana%40asesoria.es');
  });

  it("reads 'Robots programados' in a desktop window without its bridge: the web's read-only panel", async () => {
    stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [schedule()] }) });
    renderWithApp(<AutopilotDock />, { embedded: true, preloadedState: signedInState() });
    expect(await screen.findByRole('button', { name: 'Robots programados (1 tarea pendiente)' })).toBeTruthy();
  });

  it('shows no badge when there is nothing to do', async () => {
    const desktop = fakeAutopilotBridge(snapshot({ tasks: [] }));
    renderDock({ desktop });
    await waitFor(() => expect(desktop.argsOf('GetAutopilot')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Piloto automático' }).querySelector('.autopilot-dock__badge')).toBeNull();
  });
});

describe('the panel', () => {
  it('opens from the button, remembers it is open, and tells the desktop (its loop runs while open)', async () => {
    const desktop = fakeAutopilotBridge(snapshot());
    renderDock({ desktop });
    fireEvent.click(await screen.findByRole('button', { name: 'Piloto automático' }));
    const dialog = await screen.findByRole('dialog', { name: 'Piloto automático' });
    expect(window.localStorage.getItem(PANEL_OPEN_STORAGE_KEY)).toBe('true');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await waitFor(() => expect(desktop.argsOf('SetAutopilotPanelOpen')).toEqual([{ open: true }]));

    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.localStorage.getItem(PANEL_OPEN_STORAGE_KEY)).toBe('false');
    expect(desktop.argsOf('SetAutopilotPanelOpen')).toEqual([{ open: true }, { open: false }]);
  });

  it('opens by itself when it was left open', async () => {
    window.localStorage.setItem(PANEL_OPEN_STORAGE_KEY, 'true');
    stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [] }) });
    renderDock({ desktop: null });
    expect(await screen.findByRole('dialog', { name: 'Robots programados' })).toBeTruthy();
  });

  it("a single click outside only hints 'Haz doble click fuera para salir'; a double click closes", async () => {
    stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [] }) });
    renderDock({ desktop: null });
    fireEvent.click(await screen.findByRole('button', { name: 'Robots programados' }));
    const dialog = await screen.findByRole('dialog', { name: 'Robots programados' });

    fireEvent.click(backdrop(dialog));
    expect(await screen.findByText('Haz doble click fuera para salir')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Robots programados' })).toBe(dialog);

    // A click inside the panel is not a click outside.
    fireEvent.click(screen.getByText('Esperando automatizaciones'));
    vi.setSystemTime(NOW.getTime() + 2500);
    fireEvent.click(backdrop(dialog));
    expect(screen.getByRole('dialog', { name: 'Robots programados' })).toBe(dialog);

    vi.setSystemTime(NOW.getTime() + 3000);
    fireEvent.click(backdrop(dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.localStorage.getItem(PANEL_OPEN_STORAGE_KEY)).toBe('false');
  });

  it('closes on Escape and gives focus back to the button', async () => {
    stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [] }) });
    renderDock({ desktop: null });
    const button = await screen.findByRole('button', { name: 'Robots programados' });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Robots programados' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));

    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Robots programados' })));
  });

  it('gives focus to the button on closing a panel that opened by itself', async () => {
    window.localStorage.setItem(PANEL_OPEN_STORAGE_KEY, 'true');
    stubApi({ 'GET /api/browserflow/schedule': () => jsonResponse(200, { items: [] }) });
    renderDock({ desktop: null });
    const dialog = await screen.findByRole('dialog', { name: 'Robots programados' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Robots programados' })));
  });

  it('keeps a failing panel to itself: the screen stays, the panel closes and says so', async () => {
    // A bridge that answers something that is not a snapshot (the real client refuses it; this one does not).
    const desktop = fakeAutopilotBridge(snapshot(), { GetAutopilot: () => ({ ok: true, data: {} }), SetAutopilotPanelOpen: () => ({ ok: true, data: {} }) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDock({ desktop });
    fireEvent.click(await screen.findByRole('button', { name: 'Piloto automático' }));
    expect(await screen.findByText('No se ha podido abrir el piloto automático. Vuelve a cargar la aplicación para intentarlo de nuevo.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.localStorage.getItem(PANEL_OPEN_STORAGE_KEY)).toBe('false');
    expect(screen.getByRole('button', { name: 'Piloto automático' })).toBeTruthy();
  });
});
