import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { pathFor } from '#shared/api/flows.ts';
import { EMAIL_TAKEN_ELSEWHERE_MESSAGE, INVITATION_GONE_MESSAGE, INVITATION_NOT_FOUND_MESSAGE, colleaguesPaths } from '#shared/api/colleagues.ts';
import { jsonResponse, mockApi, renderWithApp, testUser } from '../../test/renderApp.tsx';
import InvitationPage from './InvitationPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const TOKEN = `inv12345.${'s'.repeat(43)}`;
const PREVIEW = `GET ${pathFor(colleaguesPaths.invitationByToken, { token: TOKEN })}`;
const ACCEPT = `POST ${pathFor(colleaguesPaths.acceptInvitation, { token: TOKEN })}`;
const preview = { firmName: 'Asesoría Pérez', email: 'luis@asesoria.es', invitedBy: 'Ana', expiresAt: '2026-12-02T10:00:00.000Z', accountElsewhere: false };
const failure = (status: number, code: string, message: string) => jsonResponse(status, { statusCode: status, code, message });

function renderInvitation(routes: Parameters<typeof mockApi>[0], token = TOKEN) {
  const api = mockApi(routes);
  vi.stubGlobal('fetch', api.fetchMock);
  const view = renderWithApp(
    <Routes>
      <Route path="/invitacion/:token" element={<InvitationPage />} />
      <Route path="/home" element={<p>Pantalla de inicio</p>} />
      <Route path="/auth" element={<p>Pantalla de acceso</p>} />
    </Routes>,
    { path: `/invitacion/${token}` },
  );
  return { api, ...view };
}

async function fillAndJoin() {
  fireEvent.change(await screen.findByLabelText('Nombre'), { target: { value: ' Luis ' } });
  fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'Segura#2026x' } });
  fireEvent.click(screen.getByRole('button', { name: 'Unirme a Asesoría Pérez' }));
}

describe('InvitationPage', () => {
  it('shows who invites to which firm, with the invited email read-only, after a loading state', async () => {
    renderInvitation({ [PREVIEW]: () => jsonResponse(200, preview) });
    expect(screen.getByRole('status').textContent).toContain('Cargando la invitación…');

    expect(await screen.findByRole('heading', { name: 'Ana te invita a unirte a Asesoría Pérez en AutoAsesor' })).toBeTruthy();
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('luis@asesoria.es');
    expect(email.readOnly).toBe(true);
  });

  it('joins: the new colleague is signed in and lands on Inicio', async () => {
    const user = testUser({ uid: 'u2', name: 'Luis', email: 'luis@asesoria.es', role: 'member' });
    const { api, store } = renderInvitation({ [PREVIEW]: () => jsonResponse(200, preview), [ACCEPT]: () => jsonResponse(201, { userData: user }) });
    await fillAndJoin();

    expect(await screen.findByText('Pantalla de inicio')).toBeTruthy();
    expect(api.calls.find((call) => call.key === ACCEPT)?.body).toEqual({ name: 'Luis', password: 'Segura#2026x' });
    expect(store.getState().session).toMatchObject({ status: 'authenticated', user: { uid: 'u2', role: 'member' } });
  });

  it('checks the sign-up rules before sending anything', async () => {
    const { api } = renderInvitation({ [PREVIEW]: () => jsonResponse(200, preview) });
    fireEvent.change(await screen.findByLabelText('Contraseña'), { target: { value: 'corta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unirme a Asesoría Pérez' }));

    await waitFor(() => expect(screen.getByLabelText('Contraseña').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByLabelText('Nombre').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls.some((call) => call.key === ACCEPT)).toBe(false);
  });

  it('shows a 409 (the email got an account meanwhile) and stays on the page', async () => {
    const { store } = renderInvitation({
      [PREVIEW]: () => jsonResponse(200, preview),
      [ACCEPT]: () => failure(409, 'EMAIL_TAKEN', EMAIL_TAKEN_ELSEWHERE_MESSAGE),
    });
    await fillAndJoin();

    expect((await screen.findByRole('alert')).textContent).toBe(EMAIL_TAKEN_ELSEWHERE_MESSAGE);
    expect(store.getState().session.status).not.toBe('authenticated');
    expect(screen.queryByText('Pantalla de inicio')).toBeNull();
  });

  it('tells the holder of an address that has an account with another firm that it cannot join with it, with no form', async () => {
    const { api } = renderInvitation({ [PREVIEW]: () => jsonResponse(200, { ...preview, accountElsewhere: true }) });
    expect(await screen.findByRole('heading', { name: 'No puedes unirte con este email' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(EMAIL_TAKEN_ELSEWHERE_MESSAGE);
    expect(screen.queryByLabelText('Contraseña')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Ir a iniciar sesión' }));
    expect(await screen.findByText('Pantalla de acceso')).toBeTruthy();
    expect(api.calls.some((call) => call.key === ACCEPT)).toBe(false);
  });

  it('says when the link has expired, been used or revoked, and links to the sign-in', async () => {
    renderInvitation({ [PREVIEW]: () => failure(410, 'INVITATION_GONE', INVITATION_GONE_MESSAGE) });
    expect((await screen.findByRole('alert')).textContent).toBe(INVITATION_GONE_MESSAGE);
    fireEvent.click(screen.getByRole('link', { name: 'Ir a iniciar sesión' }));
    expect(await screen.findByText('Pantalla de acceso')).toBeTruthy();
  });

  it('turns into the gone state when the link dies between the preview and the join', async () => {
    renderInvitation({ [PREVIEW]: () => jsonResponse(200, preview), [ACCEPT]: () => failure(410, 'INVITATION_GONE', INVITATION_GONE_MESSAGE) });
    await fillAndJoin();
    expect((await screen.findByRole('alert')).textContent).toBe(INVITATION_GONE_MESSAGE);
    expect(screen.queryByRole('button', { name: 'Unirme a Asesoría Pérez' })).toBeNull();
  });

  it('says an unknown invitation does not exist', async () => {
    renderInvitation({ [PREVIEW]: () => failure(404, 'NOT_FOUND', INVITATION_NOT_FOUND_MESSAGE) });
    expect((await screen.findByRole('alert')).textContent).toBe(INVITATION_NOT_FOUND_MESSAGE);
    expect(screen.getByRole('link', { name: 'Ir a iniciar sesión' })).toBeTruthy();
  });

  it('does not ask the server about a malformed token', () => {
    const { api } = renderInvitation({}, 'no-es-un-token');
    expect(screen.getByRole('alert').textContent).toBe(INVITATION_NOT_FOUND_MESSAGE);
    expect(api.calls).toEqual([]);
  });

  it('offers a retry when the preview cannot be loaded', async () => {
    let failures = 1;
    renderInvitation({ [PREVIEW]: () => (failures-- > 0 ? failure(500, 'INTERNAL', 'Error') : jsonResponse(200, preview)) });
    fireEvent.click(await screen.findByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('heading', { name: 'Ana te invita a unirte a Asesoría Pérez en AutoAsesor' })).toBeTruthy();
  });
});
