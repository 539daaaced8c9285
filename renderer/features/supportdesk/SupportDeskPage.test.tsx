import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Ticket, TicketPage } from '#shared/api/support.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import SupportDeskPage from './SupportDeskPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const agent = signedInState(testUser({ supportAgent: true, email: 'marta@autoasesor.es', name: 'Marta' }));

const deskTicket = (overrides: Partial<Ticket> = {}): Ticket => ({
  id: 't1', subject: 'No puedo descargar la factura de marzo', category: 'facturacion', status: 'open', run: null,
  openedBy: { name: 'Ana', email: 'ana@asesoria.es' }, unread: 1, createdAt: '2026-03-02T08:15:00.000Z',
  updatedAt: '2026-03-02T09:30:00.000Z', firmName: 'Asesoría Pérez', ...overrides,
});
const page = (items: Ticket[]): TicketPage => ({ items, page: 1, pageCount: 1, total: items.length });
const withThread = (overrides: Partial<Ticket> = {}) => deskTicket({
  messages: [{ id: 'm1', author: 'user', authorName: 'Ana', body: 'Me da un error al descargarla.', via: 'app', createdAt: '2026-03-02T08:15:00.000Z', attachments: [{ fileId: 'f1', name: 'error.png', size: 5000 }] }],
  ...overrides,
});

function stub(routes: Record<string, (body: unknown) => Response>) {
  const api = mockApi(routes);
  vi.stubGlobal('fetch', api.fetchMock);
  return api.calls;
}

describe('/soporte', () => {
  it('does not exist for anyone outside the support team, and asks the server nothing', () => {
    const calls = stub({});
    renderWithApp(<SupportDeskPage />, { path: '/soporte', preloadedState: signedInState() });
    expect(screen.getByRole('heading', { level: 1, name: 'Esta página no existe' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('does not exist either when the server says the user is not on the team', async () => {
    stub({ 'GET /api/support/admin/tickets?status=open&page=1': () => jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' }) });
    renderWithApp(<SupportDeskPage />, { path: '/soporte', preloadedState: agent });
    expect(await screen.findByRole('heading', { level: 1, name: 'Esta página no existe' })).toBeTruthy();
  });

  it('lists the pending tickets of every firm, and the others by status', async () => {
    const calls = stub({
      'GET /api/support/admin/tickets?status=open&page=1': () => jsonResponse(200, page([deskTicket()])),
      'GET /api/support/admin/tickets?status=closed&page=1': () => jsonResponse(200, page([])),
    });
    renderWithApp(<SupportDeskPage />, { path: '/soporte', preloadedState: agent });
    const row = (await screen.findByRole('link', { name: 'No puedo descargar la factura de marzo' })).closest('li')!;
    expect(row.textContent).toContain('Asesoría Pérez');
    expect(row.textContent).toContain('Pagos y facturas');
    expect(row.textContent).toContain('Ana');
    expect(row.textContent).toContain('02/03/2026 10:30');
    expect(row.textContent).toContain('1 mensaje sin leer');
    expect(within(row).getByRole('link').getAttribute('href')).toBe('/soporte?estado=open&consulta=t1');

    fireEvent.click(screen.getByRole('radio', { name: 'Cerradas' }));
    expect(await screen.findByRole('region', { name: 'No hay consultas cerradas' })).toBeTruthy();
    expect(calls.some((call) => call.key === 'GET /api/support/admin/tickets?status=closed&page=1')).toBe(true);
  });

  it('answers a ticket (saying the user is emailed) and closes and reopens it', async () => {
    const answered = withThread({
      status: 'answered', unread: 0,
      messages: [...(withThread().messages ?? []), { id: 'm2', author: 'support', authorName: 'Marta', body: 'Ya la tienes disponible.', via: 'app', createdAt: '2026-03-02T10:00:00.000Z', attachments: [] }],
    });
    const calls = stub({
      'GET /api/support/admin/tickets?status=open&page=1': () => jsonResponse(200, page([deskTicket()])),
      'GET /api/support/admin/tickets/t1': () => jsonResponse(200, withThread()),
      'POST /api/support/admin/tickets/t1/replies': () => jsonResponse(201, answered),
      'PUT /api/support/admin/tickets/t1/status': (body) => jsonResponse(200, deskTicket({ status: (body as { status: Ticket['status'] }).status, unread: 0 })),
    });
    renderWithApp(<SupportDeskPage />, { path: '/soporte?estado=open&consulta=t1', preloadedState: agent });
    const heading = await screen.findByRole('heading', { level: 2, name: 'No puedo descargar la factura de marzo' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('Asesoría Pérez')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Descargar error.png' }).getAttribute('href')).toBe('/api/support/admin/tickets/t1/attachments/f1');
    expect(screen.getByText('El usuario recibirá tu respuesta por email.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Tu respuesta'), { target: { value: 'Ya la tienes disponible.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Responder' }));
    expect(await screen.findByText('Ya la tienes disponible.', { selector: 'p' })).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /api/support/admin/tickets/t1/replies')?.body).toEqual({ body: 'Ya la tienes disponible.' });
    expect(screen.getByText('Respondido')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cerrar consulta' }));
    expect(await screen.findByRole('button', { name: 'Reabrir' })).toBeTruthy();
    expect(screen.getByText('Cerrado')).toBeTruthy();
    // The thread stays: the status answer carries no messages.
    expect(screen.getByText('Ya la tienes disponible.', { selector: 'p' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reabrir' }));
    expect(await screen.findByRole('button', { name: 'Cerrar consulta' })).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PUT /api/support/admin/tickets/t1/status').map((call) => call.body)).toEqual([{ status: 'closed' }, { status: 'open' }]);
  });

  it('labels the firm’s messages with their author and firm, the team’s as Soporte, and says how the run ended (the team cannot open the firm’s history)', async () => {
    stub({
      'GET /api/support/admin/tickets?status=open&page=1': () => jsonResponse(200, page([deskTicket()])),
      'GET /api/support/admin/tickets/t1': () => jsonResponse(200, withThread({
        firmName: 'Asesoría Pérez',
        openedBy: { name: 'Lucía Pérez', email: 'lucia@asesoria.es' },
        run: {
          id: 'r7', robot: 'Notificaciones AEAT', createdAt: '2026-03-01T23:30:00.000Z',
          outcome: { state: 'finished', result: 'WrongInput', stoppedByUser: false, message: 'El certificado ha caducado', finishedAt: '2026-03-01T23:31:00.000Z' },
        },
        messages: [
          { id: 'm1', author: 'user', authorName: 'Lucía Pérez', body: 'No descarga nada.', via: 'app', createdAt: '2026-03-02T08:15:00.000Z', attachments: [] },
          { id: 'm2', author: 'support', authorName: 'Marta', body: 'Lo miramos.', via: 'app', createdAt: '2026-03-02T09:00:00.000Z', attachments: [] },
        ],
      })),
    });
    renderWithApp(<SupportDeskPage />, { path: '/soporte?consulta=t1', preloadedState: agent });
    const [fromFirm, fromTeam] = within(await screen.findByRole('list', { name: 'Conversación' })).getAllByRole('article');
    expect(fromFirm?.querySelector('header')?.textContent).toContain('Lucía Pérez · Asesoría Pérez');
    expect(fromFirm?.textContent).not.toContain('Tu asesoría');
    expect(fromFirm?.getAttribute('aria-label')).toBe('Lucía Pérez · Asesoría Pérez, 02/03/2026 09:15');
    expect(fromTeam?.querySelector('header')?.textContent).toContain('Soporte');
    expect(fromTeam?.textContent).not.toContain('Tu asesoría');
    // The team's own history would not hold the firm's run: the desk says how it ended instead of linking there.
    expect(screen.queryByRole('link', { name: 'Ver en el historial' })).toBeNull();
    expect(screen.getByText('Entradas incorrectas · El certificado ha caducado · 02/03/2026 00:31')).toBeTruthy();
  });

  it('shows the server’s reason when a status change is refused', async () => {
    stub({
      'GET /api/support/admin/tickets?status=open&page=1': () => jsonResponse(200, page([deskTicket()])),
      'GET /api/support/admin/tickets/t1': () => jsonResponse(200, withThread()),
      'PUT /api/support/admin/tickets/t1/status': () => jsonResponse(409, { statusCode: 409, code: 'CONFLICT', message: 'La consulta ya estaba cerrada' }),
    });
    renderWithApp(<SupportDeskPage />, { path: '/soporte?consulta=t1', preloadedState: agent });
    fireEvent.click(await screen.findByRole('button', { name: 'Cerrar consulta' }));
    expect((await screen.findByRole('alert')).textContent).toBe('La consulta ya estaba cerrada');
  });
});
