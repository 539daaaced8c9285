import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { STRIPE_UNAVAILABLE_MESSAGE } from '#shared/api/billing.ts';
import { jsonResponse, mockApi, renderWithApp, signedInState } from '../../test/renderApp.tsx';
import LedgerPage from './LedgerPage.tsx';
import { apiError, ledgerEntry, report } from './test/fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

function renderLedger(routes: Parameters<typeof mockApi>[0]) {
  const api = mockApi(routes);
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(<LedgerPage />, { path: '/payments/consumo', preloadedState: signedInState() });
  return api;
}

const fifty = Array.from({ length: 50 }, (_, index) => ledgerEntry({ id: `le_${index}` }));
const bodyRows = async () => (await screen.findAllByRole('row')).slice(1);

describe('LedgerPage', () => {
  it('shows the current period, its totals and its movements, signed and linked to the run history', async () => {
    renderLedger({
      'GET /api/usage-report': () => jsonResponse(200, report({
        items: [
          ledgerEntry(),
          ledgerEntry({ id: 'le_2', kind: 'credit', runId: null, robot: null, user: null, units: null, unitName: null, slans: 2000, description: 'Plan Básico: periodo del 31/10/2026 al 30/11/2026' }),
          ledgerEntry({ id: 'le_3', slans: -30, extraSlans: 30, at: '2026-11-29T23:30:00.000Z' }),
          // Past the plan: its extra slans with the € they bill.
          ledgerEntry({ id: 'le_4', slans: -2, extraSlans: 2, extraPrice: 0.06, at: '2026-11-29T23:00:00.000Z' }),
        ],
      })),
    });

    expect(await screen.findByText('Periodo actual: del 31/10/2026 al 30/11/2026')).toBeTruthy();
    const totals = within(screen.getByRole('region', { name: 'Totales del periodo' }));
    expect(totals.getByText('2.120 slans')).toBeTruthy();
    expect(totals.getByText('2.000 slans')).toBeTruthy();
    expect(totals.getByText('37')).toBeTruthy();
    expect(totals.getByText('120 slans · 3,60 €')).toBeTruthy();

    const rows = await bodyRows();
    expect(rows.map((row) => row.textContent)).toEqual([
      '10/11/2026 10:30Modelo 111Ana12 declaraciones−12—',
      '10/11/2026 10:30Plan Básico: periodo del 31/10/2026 al 30/11/2026——+2.000—',
      '30/11/2026 00:30Modelo 111Ana12 declaraciones−3030 slans',
      '30/11/2026 00:00Modelo 111Ana12 declaraciones−22 slans · 0,06\u00a0€',
    ]);
    const run = within(rows[2]!).getByRole('link', { name: 'Ver la ejecución de Modelo 111 en el historial' });
    // 23:30 UTC on 29 November is the 30th in Madrid: the history is filtered to that day.
    expect(run.getAttribute('href')).toBe('/flows?q=Modelo+111&desde=2026-11-30&hasta=2026-11-30');
    expect(screen.getByRole('link', { name: 'Descargar Excel' }).getAttribute('href')).toBe('/api/usage-report/export');
  });

  it('loads 50 more with Cargar más until the server has no more', async () => {
    const api = renderLedger({
      'GET /api/usage-report': () => jsonResponse(200, report({ items: fifty, nextCursor: 'c1' })),
      'GET /api/usage-report?cursor=c1': () => jsonResponse(200, report({ items: [ledgerEntry({ id: 'le_last', robot: 'Modelo 303' })], nextCursor: null })),
    });
    expect(await bodyRows()).toHaveLength(50);
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('Modelo 303')).toBeTruthy();
    expect(await bodyRows()).toHaveLength(51);
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(api.calls.map((call) => call.key)).toContain('GET /api/usage-report?cursor=c1');
  });

  it('asks for the picked days (whole Madrid days) and links the export to them', async () => {
    const from = '2026-09-30T22:00:00.000Z';
    const to = '2026-10-31T22:59:59.999Z';
    const api = renderLedger({
      'GET /api/usage-report': () => jsonResponse(200, report()),
      [`GET /api/usage-report?from=${encodeURIComponent(from)}`]: () => jsonResponse(200, report()),
      [`GET /api/usage-report?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`]: () =>
        jsonResponse(200, report({ period: { from, to }, items: [] })),
    });
    await screen.findByText('Periodo actual: del 31/10/2026 al 30/11/2026');
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-10-01' } });
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-10-31' } });

    expect(await screen.findByText('Periodo: del 01/10/2026 al 31/10/2026')).toBeTruthy();
    expect(screen.getByText('No hay movimientos en este periodo')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Descargar Excel' }).getAttribute('href'))
      .toBe(`/api/usage-report/export?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(api.calls.some((call) => call.key.includes('to='))).toBe(true);
  });

  it('says when Hasta comes before Desde', async () => {
    renderLedger({ 'GET /api/usage-report': () => jsonResponse(200, report()) });
    await screen.findByText(/Periodo actual/);
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2026-10-01' } });
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2026-10-31' } });
    expect((await screen.findByRole('alert')).textContent).toBe('«Hasta» no puede ser anterior a «Desde»');
  });

  it('says a 503 in Spanish with Reintentar', async () => {
    renderLedger({ 'GET /api/usage-report': () => apiError(503, 'STRIPE_UNAVAILABLE', STRIPE_UNAVAILABLE_MESSAGE) });
    expect((await screen.findByRole('alert')).textContent).toContain(STRIPE_UNAVAILABLE_MESSAGE);
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});
