import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HelpPage from './HelpPage.tsx';
import { fakeUploads } from './test/fakeUploads.ts';
import { message, ticket } from './test/tickets.ts';

afterEach(() => vi.unstubAllGlobals());

const run = (id: string, name: string, createAt: string) => ({
  _id: id, browserFlow: { _id: 'aeat', name }, result: 'Success', state: 'finished', stoppedByUser: false, createAt, finishedAt: createAt,
  scheduled: false, browserFlowSchedule: null, successfulIterations: 1, totalIterations: 1, usageHistory: [], outputFileNames: [],
  outputFolder: null, user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: null, remote: false,
});

function stub(routes: Record<string, (body: unknown) => Response> = {}) {
  const api = mockApi({
    'GET /api/support': () => jsonResponse(200, { email: 'ayuda@mi-asesoria.es' }),
    'GET /api/support/tickets/unread': () => jsonResponse(200, { unread: 0 }),
    // The picker asks only for runs that ran (?ran=true): a launch refused with 402 is not a second entry.
    'GET /api/flowlog?limit=30&ran=true': () => jsonResponse(200, {
      total: 2, items: [run('r1', 'Notificaciones AEAT', '2026-03-01T10:00:00.000Z'), run('r2', 'Modelo 303', '2026-03-02T11:00:00.000Z')],
    }),
    ...routes,
  });
  vi.stubGlobal('fetch', api.fetchMock);
  return api.calls;
}

const file = (name: string, size = 1200) => new File(['x'.repeat(size)], name, { type: 'application/pdf' });
const pick = (files: File[]) => fireEvent.change(screen.getByTestId('attachments-input'), { target: { files } });

describe('/help?nueva=1: Nueva consulta', () => {
  it('refuses an empty subject, topic and message with the contract’s words, and sends nothing', async () => {
    const calls = stub();
    renderWithApp(<HelpPage />, { path: '/help?nueva=1', preloadedState: signedInState() });
    const heading = await screen.findByRole('heading', { level: 2, name: 'Nueva consulta' });
    expect(document.activeElement).toBe(heading);

    fireEvent.change(screen.getByLabelText('Mensaje'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Indica el asunto')).toBeTruthy();
    expect(screen.getByText('Elige de qué trata la consulta')).toBeTruthy();
    expect(screen.getByText('Escribe tu mensaje')).toBeTruthy();
    expect(screen.getByLabelText('Asunto').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);
  });

  it('preselects the run the URL names, sends the ticket with its files and opens it', async () => {
    const created = ticket({
      id: 't9', subject: 'El 303 no termina', run: { id: 'r2', robot: 'Modelo 303', createdAt: '2026-03-02T11:00:00.000Z' },
      messages: [message({ body: 'Se queda parado.', attachments: [{ fileId: 'f-captura.pdf', name: 'captura.pdf', size: 1200 }] })],
    });
    fakeUploads();
    const calls = stub({
      'POST /api/support/tickets': () => jsonResponse(201, created),
      'GET /api/support/tickets/t9': () => jsonResponse(200, created),
    });
    renderWithApp(<HelpPage />, { path: '/help?nueva=1&ejecucion=r2', preloadedState: signedInState() });
    const runs = screen.getByLabelText('Ejecución relacionada (opcional)') as HTMLSelectElement;
    await screen.findByRole('option', { name: 'Modelo 303 · 02/03/2026 12:00' });
    expect(runs.value).toBe('r2');
    expect(calls.filter((call) => call.key.startsWith('GET /api/flowlog?')).map((call) => call.key)).toEqual(['GET /api/flowlog?limit=30&ran=true']);

    fireEvent.change(screen.getByLabelText('Asunto'), { target: { value: 'El 303 no termina' } });
    fireEvent.change(screen.getByLabelText('¿De qué trata?'), { target: { value: 'robots' } });
    fireEvent.change(screen.getByLabelText('Mensaje'), { target: { value: 'Se queda parado.' } });
    pick([file('captura.pdf')]);
    const attached = await screen.findByRole('list', { name: 'Archivos adjuntos' });
    await within(attached).findByText('Subido');
    expect(attached.textContent).toContain('captura.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'El 303 no termina' })).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /api/support/tickets')?.body).toEqual({
      subject: 'El 303 no termina', category: 'robots', body: 'Se queda parado.', runId: 'r2', attachmentIds: ['f-captura.pdf'],
    });
  });

  it('drops a run from the URL that is not the firm’s, and says so', async () => {
    const calls = stub({
      'GET /api/flowlog/r-other': () => jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' }),
      'POST /api/support/tickets': () => jsonResponse(201, ticket({ id: 't9', messages: [] })),
      'GET /api/support/tickets/t9': () => jsonResponse(200, ticket({ id: 't9', messages: [] })),
    });
    renderWithApp(<HelpPage />, { path: '/help?nueva=1&ejecucion=r-other', preloadedState: signedInState() });
    expect(await screen.findByText('La ejecución indicada no existe o no es de tu empresa')).toBeTruthy();
    expect((screen.getByLabelText('Ejecución relacionada (opcional)') as HTMLSelectElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('Asunto'), { target: { value: 'Duda' } });
    fireEvent.change(screen.getByLabelText('¿De qué trata?'), { target: { value: 'otro' } });
    fireEvent.change(screen.getByLabelText('Mensaje'), { target: { value: 'Una pregunta.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    await screen.findByRole('heading', { level: 2, name: ticket().subject });
    expect(calls.find((call) => call.key === 'POST /api/support/tickets')?.body).toEqual({ subject: 'Duda', category: 'otro', body: 'Una pregunta.' });
  });

  it('takes five files at most, and shows the server’s refusal beside the file it refused', async () => {
    const sent = fakeUploads((name) => (name === 'virus.exe' ? { status: 415, message: 'Este tipo de archivo no está permitido' } : { status: 201 }));
    const calls = stub();
    renderWithApp(<HelpPage />, { path: '/help?nueva=1', preloadedState: signedInState() });
    await screen.findByRole('heading', { level: 2, name: 'Nueva consulta' });

    pick(['1', '2', '3', '4', '5', '6'].map((n) => file(`doc${n}.pdf`)));
    expect((await screen.findByRole('alert')).textContent).toBe('Como máximo 5 archivos por mensaje');
    expect(screen.queryByRole('list', { name: 'Archivos adjuntos' })).toBeNull();

    pick([file('nota.pdf'), file('virus.exe')]);
    const refused = (await screen.findByText('Este tipo de archivo no está permitido')).closest('li')!;
    expect(refused.textContent).toContain('virus.exe');
    fireEvent.click(within(refused).getByRole('button', { name: 'Quitar virus.exe' }));
    await waitFor(() => expect(screen.queryByText('virus.exe')).toBeNull());
    expect(screen.getByText('nota.pdf')).toBeTruthy();
    expect(sent).toEqual(['nota.pdf', 'virus.exe']);
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);
  });

  it('will not send while a file was refused', async () => {
    fakeUploads(() => ({ status: 413, message: 'El archivo supera los 100 MB' }));
    const calls = stub();
    renderWithApp(<HelpPage />, { path: '/help?nueva=1', preloadedState: signedInState() });
    await screen.findByRole('heading', { level: 2, name: 'Nueva consulta' });
    fireEvent.change(screen.getByLabelText('Asunto'), { target: { value: 'Archivo grande' } });
    fireEvent.change(screen.getByLabelText('¿De qué trata?'), { target: { value: 'otro' } });
    fireEvent.change(screen.getByLabelText('Mensaje'), { target: { value: 'Adjunto el Excel.' } });
    pick([file('grande.xlsx')]);
    await screen.findByText('El archivo supera los 100 MB');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Quita los archivos que no se han podido subir')).toBeTruthy();
    expect(calls.some((call) => call.key.startsWith('POST'))).toBe(false);
  });
});
