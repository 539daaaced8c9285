import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import type { UserData } from '../../../shared/domain/user.ts';
import UserProfilePage from './UserProfilePage.tsx';

afterEach(() => vi.unstubAllGlobals());

const renderProfile = () => renderWithApp(<UserProfilePage />, { preloadedState: signedInState(), toasts: true });

describe('UserProfilePage', () => {
  it('saves the name and language and updates the session', async () => {
    const api = mockApi({ 'PUT /api/users': (body) => jsonResponse(200, { userData: testUser(body as Partial<UserData>) }) });
    vi.stubGlobal('fetch', api.fetchMock);
    const { store } = renderProfile();
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Ana María' } });
    fireEvent.change(screen.getByLabelText('Idioma'), { target: { value: 'ca' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));

    expect((await screen.findByRole('status')).textContent).toContain('Datos guardados');
    expect(api.calls[0]?.body).toEqual({ name: 'Ana María', language: 'ca' });
    expect(store.getState().session.user?.name).toBe('Ana María');
  });

  it('requires a name', () => {
    renderProfile();
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: '  ' } });
    fireEvent.blur(screen.getByLabelText('Nombre'));
    expect(screen.getByText('Este campo es obligatorio')).toBeTruthy();
  });

  it('changes the password and shows a wrong current password next to its field', async () => {
    const api = mockApi({
      'PUT /api/users': () => jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message: 'Datos no válidos', issues: [{ path: 'currentPassword', message: 'La contraseña actual no es correcta' }] }),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    renderProfile();
    fireEvent.change(screen.getByLabelText('Contraseña actual'), { target: { value: 'vieja' } });
    fireEvent.change(screen.getByLabelText('Nueva contraseña'), { target: { value: 'Nueva#2025x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));

    expect(await screen.findByText('La contraseña actual no es correcta')).toBeTruthy();
    await waitFor(() => expect(api.calls[0]?.body).toEqual({ currentPassword: 'vieja', newPassword: 'Nueva#2025x' }));
  });
});
