import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import type { UserData } from '#shared/domain/user.ts';
import UserProfilePage from './UserProfilePage.tsx';

/** The page also lists the firm's colleagues (ColleaguesSection.test.tsx); here that list is empty and its call left out of `calls`. */
const COLLEAGUES = 'GET /api/colleagues';
/** And the firm's screen settings (RouteSettingsSection.test.tsx), left out of `calls` the same way. */
const ROUTE_SETTINGS = 'GET /api/groups/route-settings';
function profileApi(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi({
    [COLLEAGUES]: () => jsonResponse(200, { members: [], invitations: [], canManage: false }),
    [ROUTE_SETTINGS]: () => jsonResponse(200, { hidden_routes: [], allowed_routes: [], defaultRoute: '/home' }),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchMock);
  return { get calls() { return api.calls.filter((call) => call.key !== COLLEAGUES && call.key !== ROUTE_SETTINGS); } };
}

beforeEach(() => void profileApi({}));
afterEach(() => vi.unstubAllGlobals());

const renderProfile = () => renderWithApp(<UserProfilePage />, { preloadedState: signedInState(), toasts: true });

describe('UserProfilePage', () => {
  it('saves the name with Spanish, the only language offered, and updates the session', async () => {
    const api = profileApi({ 'PUT /api/users': (body) => jsonResponse(200, { userData: testUser(body as Partial<UserData>) }) });
    const { store } = renderProfile();
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Ana María' } });
    expect(screen.queryByRole('combobox', { name: 'Idioma' })).toBeNull();
    expect(screen.queryByText('English')).toBeNull();
    expect(screen.queryByText('Català')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));

    expect((await screen.findByText(/Datos guardados/)).closest('[role="status"]')).toBeTruthy();
    expect(api.calls[0]?.body).toEqual({ name: 'Ana María', language: 'es' });
    expect(store.getState().session.user?.name).toBe('Ana María');
  });

  it('requires a name', async () => {
    renderProfile();
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: '  ' } });
    fireEvent.blur(screen.getByLabelText('Nombre'));
    expect(await screen.findByText('Este campo es obligatorio')).toBeTruthy();
  });

  it('changes the password and shows a wrong current password next to its field', async () => {
    const api = profileApi({
      'PUT /api/users': () => jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message: 'Datos no válidos', issues: [{ path: 'currentPassword', message: 'La contraseña actual no es correcta' }] }),
    });
    renderProfile();
    fireEvent.change(screen.getByLabelText('Contraseña actual'), { target: { value: 'vieja' } });
    fireEvent.change(screen.getByLabelText('Nueva contraseña'), { target: { value: 'Nueva#2025x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));

    expect(await screen.findByText('La contraseña actual no es correcta')).toBeTruthy();
    await waitFor(() => expect(api.calls[0]?.body).toEqual({ currentPassword: 'vieja', newPassword: 'Nueva#2025x' }));
  });

  it('shows a validated email without offering a link', () => {
    renderProfile();
    expect(screen.getByText('Email validado')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Enviar enlace de validación' })).toBeNull();
  });

  describe('with an email not yet validated', () => {
    const SEND = 'POST /api/auth/emailvalidation/ana%40asesoria.es';
    const renderUnvalidated = () =>
      renderWithApp(<UserProfilePage />, { preloadedState: signedInState(testUser({ emailValidated: false })), toasts: true });

    it('sends the validation link and says where it went', async () => {
      const api = profileApi({ [SEND]: () => jsonResponse(202, { ok: true }) });
      renderUnvalidated();
      expect(screen.getByText('Email sin validar')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace de validación' }));

      expect((await screen.findByText(/Te hemos enviado un enlace de validación a ana@asesoria\.es\./)).closest('[role="status"]')).toBeTruthy();
      expect(api.calls).toEqual([{ key: SEND, body: undefined }]);
    });

    it('shows the server’s error when the mail cannot be sent', async () => {
      profileApi({ [SEND]: () => jsonResponse(502, { statusCode: 502, code: 'EMAIL_FAILED', message: 'Ha ocurrido un error al enviar el correo' }) });
      renderUnvalidated();
      fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace de validación' }));

      expect((await screen.findByText('Ha ocurrido un error al enviar el correo'))).toBeTruthy();
      expect(screen.queryByText(/Te hemos enviado/)).toBeNull();
    });
  });
});
