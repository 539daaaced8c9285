import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { NewReply } from '#shared/api/support.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HelpPage from './HelpPage.tsx';
import { message, ticket } from './test/tickets.ts';

afterEach(() => vi.unstubAllGlobals());

const thread = ticket({
  id: 't1', status: 'answered', run: { id: 'r2', robot: 'Modelo 303', createdAt: '2026-03-02T11:00:00.000Z' },
  messages: [
    message({ id: 'm1', body: 'No descarga nada desde ayer.' }),
    message({
      id: 'm2', author: 'support', authorName: 'Marta (soporte)', body: 'Ya está corregido.', via: 'email', createdAt: '2026-03-02T10:00:00.000Z',
      attachments: [{ fileId: 'f9', name: 'pasos.pdf', size: 2048 }],
    }),
  ],
});

function stub(routes: Record<string, (body: unknown) => Response> = {}) {
  const api = mockApi({
    'GET /api/support': () => jsonResponse(200, { email: 'ayuda@mi-asesoria.es' }),
    'GET /api/support/tickets/unread': () => jsonResponse(200, { unread: 1 }),
    'GET /api/support/tickets/t1': () => jsonResponse(200, thread),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchMock);
  return api.calls;
}

describe('/help?consulta=: one ticket', () => {
  it('shows the facts and the thread oldest first, support answers apart with their files as links', async () => {
    stub();
    renderWithApp(<HelpPage />, { path: '/help?consulta=t1', preloadedState: signedInState() });
    const heading = await screen.findByRole('heading', { level: 2, name: thread.subject });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('Respondido')).toBeTruthy();
    expect(screen.getByText('Un robot o una ejecución')).toBeTruthy();
    expect(screen.getByText(/Modelo 303 · 02\/03\/2026 12:00/)).toBeTruthy();
    // The run in the history: its robot's name and its Madrid day.
    expect(screen.getByRole('link', { name: 'Ver en el historial' }).getAttribute('href')).toBe('/flows?q=Modelo+303&desde=2026-03-02&hasta=2026-03-02');

    const [first, answer] = within(screen.getByRole('list', { name: 'Conversación' })).getAllByRole('article');
    expect(first?.textContent).toContain('No descarga nada desde ayer.');
    expect(first?.closest('li')?.className).toContain('support-message--user');
    // On /help the firm's own messages are 'Tu asesoría'.
    expect(first?.textContent).toContain('Tu asesoría');
    expect(answer?.textContent).toContain('Marta (soporte)');
    expect(answer?.textContent).toContain('02/03/2026 11:00');
    expect(answer?.textContent).toContain('por email');
    expect(answer?.closest('li')?.className).toContain('support-message--support');
    expect(within(answer!).getByRole('link', { name: 'Descargar pasos.pdf' }).getAttribute('href')).toBe('/api/support/tickets/t1/attachments/f9');
  });

  it('reading it clears its unread answers: back on the list, the summary and the row’s badge are gone', async () => {
    let read = false;
    const calls = stub({
      'GET /api/support/tickets/unread': () => jsonResponse(200, { unread: read ? 0 : 1 }),
      'GET /api/support/tickets?page=1': () => jsonResponse(200, { items: [ticket({ unread: read ? 0 : 1 })], page: 1, pageCount: 1, total: 1 }),
      'GET /api/support/tickets/t1': () => {
        read = true;
        return jsonResponse(200, thread);
      },
    });
    renderWithApp(<HelpPage />, { path: '/help', preloadedState: signedInState() });
    expect(await screen.findByText('Tienes 1 respuesta nueva de soporte')).toBeTruthy();
    fireEvent.click(await screen.findByRole('link', { name: thread.subject }));
    await screen.findByRole('heading', { level: 2, name: thread.subject });

    fireEvent.click(screen.getByRole('link', { name: 'Volver a mis consultas' }));
    const row = (await screen.findByRole('link', { name: thread.subject })).closest('li');
    // Both were asked again (the read dropped them from the cache), and now say nothing is unread.
    const asked = (key: string) => calls.filter((call) => call.key === key).length;
    await waitFor(() => expect([asked('GET /api/support/tickets/unread'), asked('GET /api/support/tickets?page=1')]).toEqual([2, 2]));
    expect(row?.textContent).not.toContain('Nueva respuesta');
    await waitFor(() => expect(screen.queryByText('Tienes 1 respuesta nueva de soporte')).toBeNull());
  });

  it('sends a reply, adds it to the thread and empties the box', async () => {
    const reply = message({ id: 'm3', body: 'Gracias, ya funciona.', createdAt: '2026-03-02T12:00:00.000Z' });
    const calls = stub({
      'POST /api/support/tickets/t1/replies': () => jsonResponse(201, { ...thread, status: 'open', messages: [...(thread.messages ?? []), reply] }),
    });
    renderWithApp(<HelpPage />, { path: '/help?consulta=t1', preloadedState: signedInState() });
    await screen.findByRole('heading', { level: 2, name: thread.subject });

    fireEvent.click(screen.getByRole('button', { name: 'Responder' }));
    expect(await screen.findByText('Escribe tu mensaje')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Tu respuesta'), { target: { value: 'Gracias, ya funciona.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Responder' }));

    expect(await screen.findByText('Gracias, ya funciona.', { selector: 'p' })).toBeTruthy();
    const body: NewReply | undefined = calls.find((call) => call.key === 'POST /api/support/tickets/t1/replies')?.body as NewReply;
    expect(body).toEqual({ body: 'Gracias, ya funciona.' });
    await waitFor(() => expect((screen.getByLabelText('Tu respuesta') as HTMLTextAreaElement).value).toBe(''));
    expect(screen.getByText('Respuesta enviada').getAttribute('role')).toBe('status');
    expect(screen.getByText('Pendiente de soporte')).toBeTruthy();
  });

  it('shows the server’s reason when a reply is refused, keeping what was written', async () => {
    stub({
      'POST /api/support/tickets/t1/replies': () =>
        jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message: 'Un archivo adjunto no existe o no es de tu empresa' }),
    });
    renderWithApp(<HelpPage />, { path: '/help?consulta=t1', preloadedState: signedInState() });
    await screen.findByRole('heading', { level: 2, name: thread.subject });
    fireEvent.change(screen.getByLabelText('Tu respuesta'), { target: { value: 'Otra cosa' } });
    fireEvent.click(screen.getByRole('button', { name: 'Responder' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Un archivo adjunto no existe o no es de tu empresa');
    expect((screen.getByLabelText('Tu respuesta') as HTMLTextAreaElement).value).toBe('Otra cosa');
  });

  it('says the ticket was not found for another firm’s id', async () => {
    stub({ 'GET /api/support/tickets/t1': () => jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado esta consulta' }) });
    renderWithApp(<HelpPage />, { path: '/help?consulta=t1', preloadedState: signedInState() });
    expect((await screen.findByRole('alert')).textContent).toContain('No se ha encontrado esta consulta');
    expect(screen.queryByRole('button', { name: 'Reintentar' })).toBeNull();
  });
});
