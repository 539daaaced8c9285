import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { jsonResponse, mockApi, renderRoutes, signedInState, testUser } from '../test/renderApp.tsx';

const unauthorized = (logoutReason?: string) => () =>
  jsonResponse(401, { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Inicia sesión', logoutReason });
const usage = { active: true, trialing: false, name: 'Plan Pro', balance: 1250, cancelled: false, usageLimit: 2000, usedSlans: 750, slansPercentage: 37.5, excededSlans: 0, extraPrice: 0, nextPaymentDate: '2025-03-01T10:00:00.000Z', paymentFailed: false };
const launcher = { active: true, trialing: false, name: 'Plan Pro', balance: 1250 };

afterEach(() => vi.unstubAllGlobals());

describe('the app routes', () => {
  it('restores the session first, then sends an anonymous visitor to Auth and back to the target after login', async () => {
    const api = mockApi({
      'GET /api/auth/session': () => jsonResponse(200, { userData: null }),
      'GET /api/auth/google': () => jsonResponse(200, { enabled: false }),
      'POST /api/auth/login': () => jsonResponse(200, { userData: testUser() }),
      'GET /api/subscriptions/launcher': () => jsonResponse(200, launcher),
      'GET /api/subscriptions/usage': () => jsonResponse(200, usage),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    const { router, store } = renderRoutes({ path: '/userprofile?tab=1' });

    expect(await screen.findByRole('heading', { name: 'Inicia sesión' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth');
    expect(store.getState().session.redirectTarget).toBe('/userprofile?tab=1');
    // Signed out is a 200 with no user: no 401, no refresh attempt, nothing logged by the browser.
    // The sign-in screen then asks whether 'Continuar con Google' is offered.
    await waitFor(() => expect(api.calls.map((call) => call.key)).toEqual(['GET /api/auth/session', 'GET /api/auth/google']));
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@asesoria.es' } });
    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'Segura#2025' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));

    expect(await screen.findByRole('heading', { name: 'Mi cuenta', level: 1 })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/userprofile?tab=1');
    expect(store.getState().session.redirectTarget).toBeNull();
    expect(screen.getByText('Hola, Ana')).toBeTruthy();
  });

  it('goes to the group default route after a login without a saved target', async () => {
    vi.stubGlobal('fetch', mockApi({
      'POST /api/auth/login': () => jsonResponse(200, { userData: testUser({}, { defaultRoute: '/payments' }) }),
      'GET /api/subscriptions/launcher': () => jsonResponse(200, launcher),
      'GET /api/subscriptions/usage': () => jsonResponse(200, usage),
    }).fetchMock);
    const { router } = renderRoutes({ path: '/login' });
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ana@asesoria.es' } });
    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payments'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Pagos' })).toBeTruthy();
  });

  it.each(['/auth', '/login', '/auth/signup'])('sends a visitor whose session is still open from %s to the group default route without showing the form', async (path) => {
    const api = mockApi({
      'GET /api/auth/session': () => jsonResponse(200, { userData: testUser({}, { defaultRoute: '/payments' }) }),
      'GET /api/subscriptions/launcher': () => jsonResponse(200, launcher),
      'GET /api/subscriptions/usage': () => jsonResponse(200, usage),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    const { router } = renderRoutes({ path });
    // While the session is being asked for, the sign-in form must not show.
    expect(screen.queryByLabelText('Contraseña')).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/payments'));
    expect(screen.queryByRole('button', { name: 'Iniciar sesión' })).toBeNull();
    expect(api.calls[0]?.key).toBe('GET /api/auth/session');
  });

  it('shows the not-found page for unknown paths', async () => {
    renderRoutes({ path: '/no-existe' });
    expect(await screen.findByRole('heading', { name: 'Página no encontrada' })).toBeTruthy();
  });

  it('asks for a plan on /smartbuilder without an active subscription, and Ver planes opens Payments', async () => {
    vi.stubGlobal('fetch', mockApi({
      'GET /api/subscriptions/launcher': () => jsonResponse(200, { ...launcher, active: false }),
      'GET /api/subscriptions/usage': () => jsonResponse(200, { ...usage, active: false }),
    }).fetchMock);
    const { router } = renderRoutes({ path: '/smartbuilder', preloadedState: signedInState() });
    expect(await screen.findByRole('dialog', { name: 'Necesitas una suscripción activa' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ver planes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/payments'));
  });

  it('on a lost session shows the server reason and returns to Auth with the target saved', async () => {
    vi.stubGlobal('fetch', mockApi({
      'GET /api/subscriptions/launcher': unauthorized(),
      'GET /api/subscriptions/usage': unauthorized(),
      'POST /api/auth/newtoken': unauthorized('Tu sesión se ha cerrado desde otro dispositivo'),
    }).fetchMock);
    const { router, store } = renderRoutes({ path: '/payments', preloadedState: signedInState() });
    expect((await screen.findByRole('alert')).textContent).toContain('Tu sesión se ha cerrado desde otro dispositivo');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(store.getState().session.redirectTarget).toBe('/payments');
  });

  it('opens the email wizard in the shell on /email', async () => {
    vi.stubGlobal('fetch', mockApi({
      'GET /api/subscriptions/launcher': () => jsonResponse(200, launcher),
      'GET /api/subscriptions/usage': () => jsonResponse(200, usage),
      'GET /api/machines': () => jsonResponse(200, { items: [] }),
      'GET /api/mail/accounts': () => jsonResponse(200, { items: [] }),
    }).fetchMock);
    const { router } = renderRoutes({ path: '/email?machine=m1', preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { name: 'Configuración de correo', level: 1 })).toBeTruthy();
    expect(screen.getByText('Hola, Ana')).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/email?machine=m1');
  });

  it('hides routes listed in hidden_routes from the menus and redirects them', async () => {
    vi.stubGlobal('fetch', mockApi({
      'GET /api/subscriptions/launcher': () => jsonResponse(200, launcher),
      'GET /api/subscriptions/usage': () => jsonResponse(200, usage),
    }).fetchMock);
    const user = testUser({}, { hidden_routes: ['/fie'], allowed_routes: ['/frumecar'] });
    const { router } = renderRoutes({ path: '/fie', preloadedState: signedInState(user) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    const nav = await screen.findByRole('navigation', { name: 'Navegación principal' });
    expect(nav.textContent).not.toContain('Procesador FIE');
    expect(nav.textContent).toContain('Frumecar');
    expect(nav.textContent).not.toContain('Gestor documental');
  });
});
