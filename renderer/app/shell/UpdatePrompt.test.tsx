import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse, mockApi, renderRoutes, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import { UPDATE_SNOOZE_MS } from './updateDismissal.ts';

type UpdateEnvelope = BridgeEnvelope<BridgeResult<'CheckAppUpdate'>>;

const outcome = (update: BridgeResult<'CheckAppUpdate'>['update'], latestVersion: string | null = '2.0.0'): UpdateEnvelope => ({
  ok: true,
  data: { currentVersion: '1.4.0', latestVersion, update, checkedAt: '2025-03-01T09:00:00.000Z' },
});

/** A desktop bridge whose CheckAppUpdate answers `answer`; every call is recorded. */
function fakeBridge(answer: UpdateEnvelope) {
  const invoke = vi.fn(async (command: string) => {
    if (command === 'CheckAppUpdate') return answer;
    if (command === 'CloseWindow') return { ok: false, error: { code: 'UNAVAILABLE', message: 'Esta acción solo está disponible en la ventana de la aplicación de escritorio.' } };
    return { ok: true, data: {} };
  });
  const bridge = { kind: 'desktop', available: true, invoke, on: () => () => undefined } as unknown as BridgeClient;
  const updateChecks = () => invoke.mock.calls.filter(([command]) => command === 'CheckAppUpdate').length;
  return { bridge, invoke, updateChecks };
}

function renderPrompt(answer: UpdateEnvelope) {
  const fake = fakeBridge(answer);
  const view = renderWithApp(<UpdatePrompt active />, { preloadedState: signedInState(), bridge: fake.bridge, embedded: true });
  return { ...fake, ...view };
}

let api: ReturnType<typeof mockApi>;
beforeEach(() => {
  api = mockApi({ 'POST /api/applogs': () => jsonResponse(204, {}) });
  vi.stubGlobal('fetch', api.fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('UpdatePrompt', () => {
  it('blocks the app on a forced update, naming both versions and how to update, with no way to close it', async () => {
    renderPrompt(outcome('forceUpdate'));
    const dialog = await screen.findByRole('dialog', { name: 'Actualización obligatoria' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('Tienes la versión 1.4.0 y es necesario actualizar a la 2.0.0 para seguir usando AutoAsesor.');
    expect(dialog.textContent).toContain('Cierra la aplicación y descarga la nueva versión desde la web de AutoAsesor o pide a tu responsable que la instale.');

    expect(screen.queryByRole('button', { name: 'Cerrar' })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    if (dialog.parentElement) fireEvent.mouseDown(dialog.parentElement);
    expect(screen.getByRole('dialog', { name: 'Actualización obligatoria' })).toBeTruthy();
  });

  it('offers to close the application from the forced-update dialog, and says why when it cannot', async () => {
    const { invoke } = renderPrompt(outcome('forceUpdate'));
    fireEvent.click(await screen.findByRole('button', { name: 'Cerrar la aplicación' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Esta acción solo está disponible en la ventana de la aplicación de escritorio.');
    expect(invoke).toHaveBeenCalledWith('CloseWindow', {});
    expect(screen.getByRole('dialog', { name: 'Actualización obligatoria' })).toBeTruthy();
  });

  it('shows a banner for an optional update that "Más tarde" hides, and remembers it', async () => {
    const first = renderPrompt(outcome('optionalUpdate'));
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toContain('Hay una nueva versión de AutoAsesor (2.0.0).');
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Más tarde' }));
    expect(screen.queryByText(/Hay una nueva versión/)).toBeNull();
    first.unmount();

    // The next start, still within the day: the same version stays quiet.
    const again = renderPrompt(outcome('optionalUpdate'));
    await waitFor(() => expect(again.updateChecks()).toBe(1));
    await Promise.resolve();
    expect(screen.queryByText(/Hay una nueva versión/)).toBeNull();
  });

  it('shows the banner again for a newer version, or once the day has passed', async () => {
    const first = renderPrompt(outcome('optionalUpdate', '2.0.0'));
    fireEvent.click(await screen.findByRole('button', { name: 'Más tarde' }));
    first.unmount();

    const newer = renderPrompt(outcome('optionalUpdate', '2.1.0'));
    expect(await screen.findByText('Hay una nueva versión de AutoAsesor (2.1.0).')).toBeTruthy();
    newer.unmount();

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + UPDATE_SNOOZE_MS + 1000);
    renderPrompt(outcome('optionalUpdate', '2.0.0'));
    expect(await screen.findByText('Hay una nueva versión de AutoAsesor (2.0.0).')).toBeTruthy();
  });

  it('shows nothing when the app is up to date', async () => {
    const { updateChecks } = renderPrompt(outcome('none', '1.4.0'));
    await waitFor(() => expect(updateChecks()).toBe(1));
    await Promise.resolve();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows nothing when the check fails, and reports it to the app logs', async () => {
    renderPrompt({ ok: false, error: { code: 'UNAVAILABLE', message: 'No se ha podido comprobar si hay actualizaciones. Revisa tu conexión.' } });
    await waitFor(() => expect(api.calls.some((call) => call.key === 'POST /api/applogs')).toBe(true));
    const log = api.calls.find((call) => call.key === 'POST /api/applogs')?.body;
    expect(log).toMatchObject({ level: 'warn', context: { command: 'CheckAppUpdate', code: 'UNAVAILABLE' } });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('UpdatePrompt in the shell', () => {
  it('asks the desktop once after sign-in and blocks a signed-in screen on a forced update', async () => {
    const { bridge, updateChecks } = fakeBridge(outcome('forceUpdate'));
    const { router } = renderRoutes({ path: '/home', preloadedState: signedInState(), bridge, embedded: true });
    expect(await screen.findByRole('dialog', { name: 'Actualización obligatoria' })).toBeTruthy();
    // A public page hides it; coming back shows the same answer without asking again.
    await router.navigate('/info');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await router.navigate('/notifications');
    expect(await screen.findByRole('dialog', { name: 'Actualización obligatoria' })).toBeTruthy();
    expect(updateChecks()).toBe(1);
  });

  it('does not ask on a public page', async () => {
    const { bridge, updateChecks } = fakeBridge(outcome('forceUpdate'));
    renderRoutes({ path: '/info', preloadedState: signedInState(), bridge, embedded: true });
    // The page's own title: the shell and the page have both rendered (a page header is a second 'banner' in jsdom).
    await screen.findByRole('heading', { level: 1 });
    expect(updateChecks()).toBe(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('never asks in web mode', async () => {
    const { bridge, updateChecks } = fakeBridge(outcome('forceUpdate'));
    renderRoutes({ path: '/home', preloadedState: signedInState(), bridge, embedded: false });
    // The page's own title: the shell and the page have both rendered (a page header is a second 'banner' in jsdom).
    await screen.findByRole('heading', { level: 1 });
    expect(updateChecks()).toBe(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
