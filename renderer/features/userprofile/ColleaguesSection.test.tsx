import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ALREADY_INVITED_MESSAGE, CANNOT_REMOVE_OWNER_MESSAGE } from '#shared/api/colleagues.ts';
import type { Colleague, Colleagues } from '#shared/api/colleagues.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { ColleaguesSection } from './ColleaguesSection.tsx';

afterEach(() => vi.unstubAllGlobals());

const LIST = 'GET /api/colleagues';
const ana = { id: 'u1', name: 'Ana', email: 'ana@asesoria.es', role: 'owner', joinedAt: '2026-01-10T09:00:00.000Z', isMe: true, mailboxes: ['oficina@asesoria.es'] } satisfies Colleague;
const luis = { id: 'u2', name: 'Luis', email: 'luis@asesoria.es', role: 'member', joinedAt: '2026-02-01T09:00:00.000Z', isMe: false, mailboxes: [] } satisfies Colleague;
const pending = {
  id: 'inv1', email: 'marta@asesoria.es', invitedBy: { name: 'Ana', email: 'ana@asesoria.es' },
  createdAt: '2026-11-25T10:00:00.000Z', expiresAt: '2026-12-02T10:00:00.000Z',
};
const asOwner: Colleagues = { members: [ana, luis], invitations: [pending], canManage: true };
const asMember: Colleagues = { members: [{ ...ana, isMe: false }, { ...luis, isMe: true }], invitations: [pending], canManage: false };
const marta = { id: 'u3', name: 'Marta', email: 'marta@asesoria.es', role: 'member', joinedAt: '2026-02-03T09:00:00.000Z', isMe: false, mailboxes: ['marta@gmail.com'] } satisfies Colleague;
const pablo = { id: 'u4', name: 'Pablo', email: 'pablo@asesoria.es', role: 'member', joinedAt: '2026-02-04T09:00:00.000Z', isMe: false, mailboxes: ['pablo@gmail.com', 'pablo@outlook.es'] } satisfies Colleague;

const conflict = (message: string) => jsonResponse(409, { statusCode: 409, code: 'ALREADY_INVITED', message });

function renderSection(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi(routes);
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<ColleaguesSection />, { preloadedState: signedInState(), toasts: true });
  return api;
}

describe('ColleaguesSection as the owner', () => {
  it('lists members with their role and "Tú", and pending invitations with who invited and until when', async () => {
    renderSection({ [LIST]: () => jsonResponse(200, asOwner) });
    const members = await screen.findByRole('region', { name: 'Miembros' });
    const [first, second] = within(members).getAllByRole('listitem');
    expect(first?.textContent).toContain('Ana (Tú)');
    expect(first?.textContent).toContain('Titular');
    expect(second?.textContent).toContain('luis@asesoria.es');
    expect(second?.textContent).toContain('Asesor');
    const invitations = screen.getByRole('region', { name: 'Invitaciones pendientes' });
    expect(invitations.textContent).toContain('marta@asesoria.es');
    expect(invitations.textContent).toContain('Invitado por Ana · Caduca el 02/12/2026');
    expect(screen.getByText('Compartís robots, historial, equipos y saldo de slans.')).toBeTruthy();
    // Nobody removes the owner, least of all from their own row.
    expect(screen.queryByRole('button', { name: 'Quitar a Ana' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Quitar a Luis' })).toBeTruthy();
  });

  it('sends an invitation, says where it went and reloads the list', async () => {
    const api = renderSection({
      [LIST]: () => jsonResponse(200, asOwner),
      'POST /api/colleagues/invitations': () => jsonResponse(201, { ...pending, id: 'inv2', email: 'pablo@asesoria.es' }),
    });
    fireEvent.change(await screen.findByLabelText('Email del compañero'), { target: { value: 'pablo@asesoria.es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar invitación' }));

    expect((await screen.findByText('Hemos enviado la invitación a pablo@asesoria.es')).getAttribute('role')).toBe('status');
    expect(api.calls.find((call) => call.key === 'POST /api/colleagues/invitations')?.body).toEqual({ email: 'pablo@asesoria.es' });
    await waitFor(() => expect(api.calls.filter((call) => call.key === LIST)).toHaveLength(2));
    expect((screen.getByLabelText('Email del compañero') as HTMLInputElement).value).toBe('');
  });

  it('shows a 409 on the email field and sends nothing for an invalid address', async () => {
    const api = renderSection({ [LIST]: () => jsonResponse(200, asOwner), 'POST /api/colleagues/invitations': () => conflict(ALREADY_INVITED_MESSAGE) });
    const field = await screen.findByLabelText('Email del compañero');
    fireEvent.change(field, { target: { value: 'no-es-un-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar invitación' }));
    expect(await screen.findByText('Introduce una dirección de correo electrónico válida')).toBeTruthy();
    expect(api.calls.some((call) => call.key.startsWith('POST'))).toBe(false);

    fireEvent.change(field, { target: { value: 'marta@asesoria.es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar invitación' }));
    const error = await screen.findByText(ALREADY_INVITED_MESSAGE);
    expect(field.getAttribute('aria-describedby')).toBe(error.id);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/Hemos enviado/)).toBeNull();
  });

  it('revokes a pending invitation', async () => {
    const api = renderSection({ [LIST]: () => jsonResponse(200, asOwner), 'DELETE /api/colleagues/invitations/inv1': () => new Response(null, { status: 204 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Retirar la invitación de marta@asesoria.es' }));

    expect((await screen.findByRole('status')).textContent).toContain('Has retirado la invitación de marta@asesoria.es');
    expect(api.calls.map((call) => call.key)).toContain('DELETE /api/colleagues/invitations/inv1');
  });

  it('removes a colleague only after the confirmation that says what happens to their work', async () => {
    const api = renderSection({ [LIST]: () => jsonResponse(200, asOwner), 'DELETE /api/colleagues/u2': () => new Response(null, { status: 204 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar a Luis' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      'Luis dejará de poder entrar en AutoAsesor. Sus ejecuciones seguirán en el historial de la empresa y sus programaciones se eliminarán.',
    );
    expect(api.calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Quitar' }));

    expect((await screen.findByRole('status')).textContent).toContain('Luis ya no forma parte de tu empresa');
    expect(api.calls.map((call) => call.key)).toContain('DELETE /api/colleagues/u2');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says in the confirmation that the mailboxes the colleague linked will be unlinked and stop sending', async () => {
    renderSection({ [LIST]: () => jsonResponse(200, { ...asOwner, members: [ana, luis, marta, pablo] }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar a Marta' }));
    expect((await screen.findByRole('dialog')).textContent).toContain(
      'Marta dejará de poder entrar en AutoAsesor. Sus ejecuciones seguirán en el historial de la empresa y sus programaciones se eliminarán. ' +
        'La cuenta de correo que vinculó (marta@gmail.com) se desconectará y AutoAsesor perderá el permiso para enviar desde ella: ' +
        'los robots que envían resultados desde esa cuenta dejarán de hacerlo hasta que elijáis otra.',
    );
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Quitar a Pablo' }));
    expect((await screen.findByRole('dialog')).textContent).toContain(
      'Las cuentas de correo que vinculó (pablo@gmail.com y pablo@outlook.es) se desconectarán y AutoAsesor perderá el permiso para enviar desde ellas',
    );
  });

  it('says nothing about mailboxes for a colleague who linked none', async () => {
    renderSection({ [LIST]: () => jsonResponse(200, asOwner) });
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar a Luis' }));
    expect((await screen.findByRole('dialog')).textContent).not.toContain('correo');
  });

  it('cancelling the confirmation removes nobody', async () => {
    const api = renderSection({ [LIST]: () => jsonResponse(200, asOwner) });
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar a Luis' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);
  });

  it('shows the server’s reason when a removal is refused', async () => {
    renderSection({
      [LIST]: () => jsonResponse(200, asOwner),
      'DELETE /api/colleagues/u2': () => jsonResponse(409, { statusCode: 409, code: 'CANNOT_REMOVE_OWNER', message: CANNOT_REMOVE_OWNER_MESSAGE }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Quitar a Luis' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Quitar' }));
    expect(await screen.findByText(CANNOT_REMOVE_OWNER_MESSAGE)).toBeTruthy();
  });
});

describe('ColleaguesSection as a member', () => {
  it('shows the list read-only and says who can manage it', async () => {
    renderSection({ [LIST]: () => jsonResponse(200, asMember) });
    expect(await screen.findByText('Solo el titular de la cuenta puede invitar o quitar compañeros.')).toBeTruthy();
    expect(screen.getByText('marta@asesoria.es')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Miembros' }).textContent).toContain('Luis (Tú)');
    expect(screen.queryByRole('button', { name: /Quitar|Retirar|Enviar invitación/ })).toBeNull();
    expect(screen.queryByLabelText('Email del compañero')).toBeNull();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let failures = 1;
    renderSection({ [LIST]: () => (failures-- > 0 ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : jsonResponse(200, asMember)) });
    expect(await screen.findByText('No se han podido cargar los compañeros de tu empresa.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Solo el titular de la cuenta puede invitar o quitar compañeros.')).toBeTruthy();
  });
});
