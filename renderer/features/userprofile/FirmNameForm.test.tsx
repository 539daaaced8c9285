import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import type { UserData } from '#shared/domain/user.ts';
import { FirmNameForm } from './FirmNameForm.tsx';

afterEach(() => vi.unstubAllGlobals());

function renderForm(user: UserData, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi(routes);
  vi.stubGlobal('fetch', api.fetchMock);
  return { api, ...renderWithApp(<FirmNameForm />, { preloadedState: signedInState(user), toasts: true }) };
}

describe('FirmNameForm (Tu asesoría)', () => {
  it("asks the owner to name a firm that still carries the owner's name, saves it and updates the session", async () => {
    const lucia = testUser({ name: 'Lucía Martín', group: { id: 'g1', name: 'Lucía Martín', config: { allowed_routes: [], hidden_routes: [] } } });
    const { api, store } = renderForm(lucia, { 'PUT /api/groups/name': (body) => jsonResponse(200, body) });
    expect(screen.getByRole('status').textContent).toContain('Ahora la asesoría lleva tu nombre');
    fireEvent.change(screen.getByLabelText('Nombre de la asesoría'), { target: { value: '  Asesoría Martín ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nombre' }));

    expect(await screen.findByText('Nombre de la asesoría guardado')).toBeTruthy();
    expect(api.calls).toEqual([{ key: 'PUT /api/groups/name', body: { name: 'Asesoría Martín' } }]);
    expect(store.getState().session.user?.group.name).toBe('Asesoría Martín');
    expect(screen.queryByText(/Ahora la asesoría lleva tu nombre/)).toBeNull();
  });

  it("shows the server's reason under the field and keeps the session's name", async () => {
    const { store } = renderForm(testUser(), {
      'PUT /api/groups/name': () => jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message: 'Datos no válidos', issues: [{ path: 'name', message: 'Escribe el nombre de la asesoría (al menos 2 caracteres)' }] }),
    });
    fireEvent.change(screen.getByLabelText('Nombre de la asesoría'), { target: { value: 'A' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nombre' }));
    expect(await screen.findByText('Escribe el nombre de la asesoría (al menos 2 caracteres)')).toBeTruthy();
    expect(store.getState().session.user?.group.name).toBe('Asesoría Pérez');
  });

  it('requires a name before sending anything', async () => {
    const { api } = renderForm(testUser());
    fireEvent.change(screen.getByLabelText('Nombre de la asesoría'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nombre' }));
    expect(await screen.findByText('Este campo es obligatorio')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('shows a member the name, with no field to change it', () => {
    renderForm(testUser({ role: 'member' }));
    expect(screen.getByText('Asesoría Pérez')).toBeTruthy();
    expect(screen.getByText(/Solo el propietario puede cambiar el nombre/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
