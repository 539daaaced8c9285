import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp } from '../../test/renderApp.tsx';
import { GoogleSignInButton, googleRefusalMessage } from './GoogleSignInButton.tsx';

afterEach(() => vi.unstubAllGlobals());

const STATUS = 'GET /api/auth/google';

function renderButton(enabled: boolean | 'error', path = '/auth', redirectTarget: string | null = null) {
  const api = mockApi({ [STATUS]: () => (enabled === 'error' ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : jsonResponse(200, { enabled })) });
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<GoogleSignInButton />, { path, preloadedState: { session: { status: 'anonymous', user: null, redirectTarget } } });
  return api;
}

describe('GoogleSignInButton', () => {
  it('offers "Continuar con Google" as a link to the start path, carrying where the visitor wanted to go', async () => {
    const api = renderButton(true, '/auth', '/fie?q=2026');
    const link = await screen.findByRole('link', { name: 'Continuar con Google' });
    expect(link.getAttribute('href')).toBe('/api/auth/google/start?redirect=%2Ffie%3Fq%3D2026');
    expect(api.calls.map((call) => call.key)).toEqual([STATUS]);
  });

  it('sends the visitor back to / when nothing was saved', async () => {
    renderButton(true);
    expect((await screen.findByRole('link', { name: 'Continuar con Google' })).getAttribute('href')).toBe('/api/auth/google/start?redirect=%2F');
  });

  it('offers nothing when the server has no Google sign-in, or cannot say', async () => {
    const api = renderButton(false);
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(screen.queryByRole('link')).toBeNull();
    vi.unstubAllGlobals();
    const failing = renderButton('error');
    await waitFor(() => expect(failing.calls).toHaveLength(1));
    expect(screen.queryByRole('link')).toBeNull();
  });

  it.each([
    ['not-configured', 'El acceso con Google no está disponible en este servidor'],
    ['denied', 'Has cancelado el acceso con Google'],
    ['unverified', 'Tu cuenta de Google no tiene el correo verificado'],
    ['no-account', 'No hay ninguna cuenta de AutoAsesor con ese correo. Regístrate primero o entra con tu contraseña.'],
    ['disabled', 'Esta cuenta de AutoAsesor está desactivada'],
    ['failed', 'No se ha podido completar el acceso con Google'],
  ])('explains a refused attempt (?google=%s)', async (reason, message) => {
    renderButton(false, `/auth?google=${reason}`);
    expect((await screen.findByRole('alert')).textContent).toContain(message);
  });

  it('gives every reason its own message, and a general one for a reason it does not know', () => {
    const reasons = ['not-configured', 'denied', 'unverified', 'no-account', 'disabled', 'failed'];
    expect(new Set(reasons.map(googleRefusalMessage)).size).toBe(reasons.length);
    expect(googleRefusalMessage('toString')).toBe(googleRefusalMessage('something-else'));
    expect(googleRefusalMessage('something-else')).toContain('No se ha podido completar el acceso con Google');
  });

  it('shows the refusal above the button when Google is offered', async () => {
    renderButton(true, '/auth?google=no-account');
    expect(await screen.findByRole('link', { name: 'Continuar con Google' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('No hay ninguna cuenta de AutoAsesor con ese correo');
  });
});
