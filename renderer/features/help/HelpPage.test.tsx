import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import HelpPage from './HelpPage.tsx';
import { ticket, ticketPage } from './test/tickets.ts';

afterEach(() => vi.unstubAllGlobals());

const baseRoutes = {
  'GET /api/support': () => jsonResponse(200, { email: 'ayuda@mi-asesoria.es' }),
  'GET /api/support/tickets/unread': () => jsonResponse(200, { unread: 0 }),
  'GET /api/support/tickets?page=1': () => jsonResponse(200, ticketPage(1, 0)),
};

function stub(routes: Record<string, (body: unknown) => Response> = {}) {
  const api = mockApi({ ...baseRoutes, ...routes });
  vi.stubGlobal('fetch', api.fetchMock);
  return api.calls;
}

describe('/help: Mis consultas', () => {
  it('lists the firm’s tickets ten a page, with their unread answers and a summary on top', async () => {
    const calls = stub({
      'GET /api/support/tickets/unread': () => jsonResponse(200, { unread: 2 }),
      'GET /api/support/tickets?page=1': () => jsonResponse(200, ticketPage(1, 12, (index) => (index === 1 ? { unread: 2, status: 'answered' } : {}))),
      'GET /api/support/tickets?page=2': () => jsonResponse(200, ticketPage(2, 12)),
    });
    renderWithApp(<HelpPage />, { path: '/help', preloadedState: signedInState() });

    const first = (await screen.findByRole('link', { name: 'Consulta 1' })).closest('li')!;
    expect(screen.getAllByRole('link', { name: /^Consulta \d+$/ })).toHaveLength(10);
    expect(first.textContent).toContain('2 respuestas nuevas');
    expect(first.textContent).toContain('Respondido');
    expect(first.textContent).toContain('Un robot o una ejecución');
    expect(first.textContent).toContain('Ana');
    expect(first.textContent).toContain('02/03/2026 10:30');
    expect(first.querySelector('a')?.getAttribute('href')).toBe('/help?consulta=t1');
    expect(screen.getByRole('link', { name: 'Consulta 2' }).closest('li')?.textContent).not.toContain('Nueva respuesta');
    expect(await screen.findByText('Tienes 2 respuestas nuevas de soporte')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByRole('link', { name: 'Consulta 12' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /^Consulta \d+$/ })).toHaveLength(2);
    expect(calls.some((call) => call.key === 'GET /api/support/tickets?page=2')).toBe(true);
  });

  it('invites to open the first one when there is none, and says nothing about unread answers', async () => {
    stub();
    renderWithApp(<HelpPage />, { path: '/help', preloadedState: signedInState() });
    const empty = await screen.findByRole('region', { name: 'Aún no has abierto ninguna consulta' });
    expect(within(empty).getByRole('link', { name: 'Nueva consulta' }).getAttribute('href')).toBe('/help?nueva=1');
    expect(screen.queryByText(/Tienes/)).toBeNull();
  });

  it('shows the server’s failure with a retry', async () => {
    stub({ 'GET /api/support/tickets?page=1': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) });
    renderWithApp(<HelpPage />, { path: '/help', preloadedState: signedInState() });
    expect((await screen.findByRole('alert')).textContent).toContain('No se han podido cargar tus consultas.');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });

  it('keeps the support address as a secondary line, and the areas below', async () => {
    stub();
    renderWithApp(<HelpPage />, { path: '/help', preloadedState: signedInState() });
    const link = await screen.findByRole('link', { name: 'ayuda@mi-asesoria.es' });
    expect(link.getAttribute('href')).toBe('mailto:ayuda@mi-asesoria.es');
    expect(link.closest('p')?.textContent).toContain('También puedes escribirnos a');
    expect(screen.getByRole('link', { name: 'Pagos' }).getAttribute('href')).toBe('/payments');
    // An area this version does not provide yet is named without a link; a provided one links to it.
    const frumecar = screen.getByText('Frumecar').closest('div');
    expect(frumecar?.textContent).toContain('Aún no disponible');
    expect(screen.queryByRole('link', { name: 'Frumecar' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Grabador de tareas' }).getAttribute('href')).toBe('/recorder');
  });

  it('says so quietly when the address cannot be loaded', async () => {
    stub({ 'GET /api/support': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) });
    renderWithApp(<HelpPage />, { path: '/help', preloadedState: signedInState() });
    expect(await screen.findByText('No se ha podido cargar la dirección de soporte.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /@/ })).toBeNull();
  });

  it('opens a ticket named in the query instead of the list', async () => {
    stub({ 'GET /api/support/tickets/t7': () => jsonResponse(200, ticket({ id: 't7', subject: 'Factura duplicada', messages: [] })) });
    renderWithApp(<HelpPage />, { path: '/help?consulta=t7', preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { level: 2, name: 'Factura duplicada' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Mis consultas' })).toBeNull();
  });
});
