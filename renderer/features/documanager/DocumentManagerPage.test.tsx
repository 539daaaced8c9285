import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE } from '#shared/api/documentmanager.ts';
import type { ManagedDocument, ManagedDocumentsPage } from '#shared/api/documentmanager.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import DocumentManagerPage from './DocumentManagerPage.tsx';

afterEach(() => vi.unstubAllGlobals());

const LIST = '/api/documentmanager';
const COMPANIES = 'GET /api/documentmanager/companies';

const contract: ManagedDocument = {
  key: 'generated:d1', kind: 'generated', name: 'Autorización RED - Talleres Ruiz.pdf', company: 'Talleres Ruiz SL', source: 'Autorización RED',
  size: 48_200, createdAt: '2026-11-30T09:05:00.000Z', expiresAt: null, downloadPath: '/api/documentcreator/documents/d1/download?format=pdf',
};
const robotOutput: ManagedDocument = {
  key: 'robot-output:r7', kind: 'robot-output', name: 'resultado.xlsx', company: null, source: 'Validar identificadores',
  size: null, createdAt: '2026-07-15T22:30:00.000Z', expiresAt: '2027-01-15T10:00:00.000Z', downloadPath: null,
};
const page = (items: ManagedDocument[], total = items.length, number = 1): ManagedDocumentsPage => ({ items, total, page: number, pageSize: 50 });

/** Where the in-memory router is, so the tests read the filters from the address. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.search}</output>;
}
const address = () => screen.getByTestId('address').textContent;

function renderPage(path: string, list: (url: string) => Response, companies = () => jsonResponse(200, { items: [{ company: 'Talleres Ruiz SL', documents: 12 }, { company: 'Bar Pepe', documents: 3 }] })) {
  const api = mockApi({ [COMPANIES]: companies });
  const fetchMock = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === LIST || url.startsWith(`${LIST}?`)) {
      api.calls.push({ key: `GET ${url}`, body: undefined });
      return Promise.resolve(list(url));
    }
    return api.fetchMock(input, init);
  };
  vi.stubGlobal('fetch', fetchMock);
  renderWithApp(<><DocumentManagerPage /><Address /></>, { path, preloadedState: signedInState(testUser({}, { allowed_routes: ['/documanager'] })) });
  return { listCalls: () => api.calls.filter((call) => call.key.startsWith(`GET ${LIST}`) && !call.key.startsWith(COMPANIES)).map((call) => call.key.slice(4)) };
}

describe('DocumentManagerPage', () => {
  it('lists each document with its kind, company, source, size, Madrid date, retention and download link', async () => {
    renderPage('/documanager', () => jsonResponse(200, page([contract, robotOutput])));
    const table = await screen.findByRole('table', { name: 'Documentos de la asesoría' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first?.textContent).toContain('Autorización RED - Talleres Ruiz.pdf');
    expect(first?.textContent).toContain('Documento generado');
    expect(first?.textContent).toContain('Talleres Ruiz SL');
    expect(first?.textContent).toContain('48,2 kB');
    expect(first?.textContent).toContain('30/11/2026 10:05');
    expect(first?.textContent).toContain('Se conserva hasta que lo borres');
    const link = within(first as HTMLElement).getByRole('link', { name: 'Descargar Autorización RED - Talleres Ruiz.pdf' });
    expect(link.getAttribute('href')).toBe(contract.downloadPath);

    expect(second?.textContent).toContain('Resultado de robot');
    expect(second?.textContent).toContain('Sin empresa');
    // 22:30 UTC in July is already the next day in Madrid (CEST).
    expect(second?.textContent).toContain('16/07/2026 00:30');
    expect(second?.textContent).toContain('Se conserva hasta 15/01/2027');
    expect(within(second as HTMLElement).queryByRole('link')).toBeNull();
    expect(screen.getByText('2 documentos')).toBeTruthy();
  });

  it('asks the server for the filters in the address and writes every filter change back to it, from page 1', async () => {
    const view = renderPage('/documanager?kind=fie&page=2', (url) => jsonResponse(200, page([{ ...contract, kind: 'fie' }], 120, url.includes('page=2') ? 2 : 1)));
    await screen.findByRole('table');
    expect(view.listCalls()).toEqual([`${LIST}?kind=fie&page=2`]);
    expect((screen.getByLabelText('Tipo') as HTMLSelectElement).value).toBe('fie');

    // The companies list fills the filter, with how many documents each holds.
    const company = screen.getByLabelText('Empresa cliente');
    await within(company).findByRole('option', { name: 'Bar Pepe (3)' });
    fireEvent.change(company, { target: { value: 'Bar Pepe' } });
    await waitFor(() => expect(address()).toBe('?kind=fie&company=Bar+Pepe'));
    await waitFor(() => expect(view.listCalls()).toContain(`${LIST}?kind=fie&company=Bar+Pepe`));

    fireEvent.change(screen.getByLabelText('Tipo'), { target: { value: '' } });
    await waitFor(() => expect(address()).toBe('?company=Bar+Pepe'));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar documentos' }), { target: { value: 'RGPD' } });
    await waitFor(() => expect(address()).toBe('?company=Bar+Pepe&q=RGPD'), { timeout: 2000 });

    // 120 documents in pages of 50: the next page keeps the filters.
    fireEvent.click(await screen.findByRole('button', { name: 'Siguiente' }));
    await waitFor(() => expect(address()).toBe('?company=Bar+Pepe&q=RGPD&page=2'));

    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtros' }));
    await waitFor(() => expect(address()).toBe(''));
  });

  it('says there are no documents yet', async () => {
    renderPage('/documanager', () => jsonResponse(200, page([])));
    expect(await screen.findByRole('region', { name: 'Aún no hay documentos en tu asesoría.' })).toBeTruthy();
  });

  it('says when the filters find nothing and offers to clear them', async () => {
    renderPage('/documanager?q=zzz', () => jsonResponse(200, page([])));
    expect(await screen.findByRole('region', { name: 'No hay documentos con estos filtros' })).toBeTruthy();
    expect(screen.queryByText('Aún no hay documentos en tu asesoría.')).toBeNull();
  });

  it('explains that the firm has not turned the manager on when the server answers 403', async () => {
    renderPage('/documanager', () => jsonResponse(403, { statusCode: 403, code: 'FORBIDDEN', message: DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE }));
    expect(await screen.findByText(DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir a Mi cuenta' }).getAttribute('href')).toBe('/userprofile');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a loading state, then an error with a retry that works', async () => {
    let failures = 1;
    renderPage('/documanager', () => (failures-- > 0 ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error' }) : jsonResponse(200, page([contract]))));
    expect(screen.getByRole('status', { name: 'Cargando documentos…' })).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toContain('No se han podido cargar los documentos.');
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('link', { name: /Descargar Autorización RED/ })).toBeTruthy();
  });
});
