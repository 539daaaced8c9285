import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { jsonResponse, mockApi, renderRoutes, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import AuthPage from './AuthPage.tsx';

const VALIDATE = 'POST /api/auth/emailvalidation/ana%40asesoria.es';
const LINK = '/auth/emailvalidation?email=ana%40asesoria.es&token=t0k3n-de-prueba-largo';

function renderLink(path: string) {
  return renderWithApp(
    <Routes>
      <Route path="/auth/:mode?" element={<AuthPage />} />
    </Routes>,
    { path },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the emailed validation link', () => {
  it('says the link is not valid without asking the server when a parameter is missing', () => {
    const api = mockApi({});
    vi.stubGlobal('fetch', api.fetchMock);
    renderLink('/auth/emailvalidation?email=ana%40asesoria.es');
    expect(screen.getByRole('heading', { name: 'Validación del email' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('El enlace no es válido o ha caducado. Pide uno nuevo.');
    expect(screen.getByRole('link', { name: 'Volver a iniciar sesión' }).getAttribute('href')).toBe('/auth/signin');
    expect(api.calls).toEqual([]);
  });

  it('posts the token once, shows that it is validating, then that the email is validated', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = mockApi({ [VALIDATE]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    vi.stubGlobal('fetch', api.fetchMock);
    renderLink(LINK);

    expect(screen.getByRole('status').textContent).toBe('Validando tu email…');
    await waitFor(() => expect(api.calls).toHaveLength(1));
    answer(jsonResponse(200, { ok: true }));

    expect(await screen.findByText('Tu email ana@asesoria.es está validado.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir al inicio' }).getAttribute('href')).toBe('/home');
    expect(api.calls).toEqual([{ key: VALIDATE, body: { token: 't0k3n-de-prueba-largo' } }]);
  });

  it('shows the server’s message and a way back to sign in when the link is spent', async () => {
    const api = mockApi({
      [VALIDATE]: () => jsonResponse(400, { statusCode: 400, code: 'INVALID_TOKEN', message: 'El enlace no es válido o ha caducado' }),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    renderLink(LINK);

    expect((await screen.findByRole('alert')).textContent).toBe('El enlace no es válido o ha caducado');
    expect(screen.getByRole('link', { name: 'Volver a iniciar sesión' })).toBeTruthy();
    expect(screen.queryByText(/está validado/)).toBeNull();
  });

  it('opens for a signed-in user too and refreshes their session', async () => {
    const api = mockApi({
      [VALIDATE]: () => jsonResponse(200, { ok: true }),
      'GET /api/users/me': () => jsonResponse(200, { userData: testUser({ emailValidated: true }) }),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    const { store, router } = renderRoutes({ path: LINK, preloadedState: signedInState(testUser({ emailValidated: false })) });

    expect(await screen.findByText('Tu email ana@asesoria.es está validado.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/emailvalidation');
    await waitFor(() => expect(store.getState().session.user?.emailValidated).toBe(true));
    expect(store.getState().session.status).toBe('authenticated');
    expect(api.calls.map((call) => call.key)).toEqual([VALIDATE, 'GET /api/users/me']);
  });
});
