/** /flows: the history table (rows, paging, filter, report). A run expanded: FlowsPage.history-run.test.tsx. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FlowLog } from '#shared/api/flows.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { MESA, catalogueOf, historyOf, historyRows, renderAt, setUpFlowsPageTests, stubApi } from './test/renderFlows.tsx';
import { flowLog, validarIdentificadores } from './testData.ts';

setUpFlowsPageTests();

describe('FlowsPage history', () => {
  const manyRuns = (count: number, overrides: Partial<FlowLog> = {}) =>
    Array.from({ length: count }, (_, index) => flowLog({ _id: `run-${index + 1}`, ...overrides }));

  it('shows each run with launch type, Madrid date, result, cost and iterations', async () => {
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([validarIdentificadores]),
      'GET /api/flowlog': historyOf([
        flowLog({ _id: 'a', usageHistory: [{ usageUnits: 12, usageRatio: 1 }], successfulIterations: 2, totalIterations: 4 }),
        flowLog({ _id: 'b', browserFlow: { _id: 'viejo', name: null }, result: 'NotEnoughSlans', usageHistory: [], scheduled: true, browserFlowSchedule: { _id: 's', machine: { name: 'Oficina' } } }),
        flowLog({ _id: 'c', result: 'Exploded', scheduled: true, browserFlowSchedule: { _id: 's2', machine: null }, createAt: '2025-12-31T23:15:00.000Z' }),
      ]),
    });
    renderAt('/flows');
    await screen.findByText('3 ejecuciones');
    const [first, second, third] = historyRows().map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(first?.slice(1)).toEqual(['Validar identificadoresManual', '14/07/2025 09:05', 'Finalizado', '1 min 00 s', '12 créditos', '2 de 4 50\u00a0%. Menos del 75 % sin errores', '']);
    expect(second?.slice(1, 6)).toEqual(['Este robot ya no forma parte de nuestra familiaLanzamiento remoto', '14/07/2025 09:05', 'Insuficientes créditos', '1 min 00 s', '0 créditos']);
    expect(third?.slice(1, 4)).toEqual(['Validar identificadoresProgramado', '01/01/2026 00:15', 'Error inesperado']);
    expect(screen.getByText('2 de 4').closest('.flows-ratio')?.className).toContain('flows-ratio--low');
  });

  it('says when there are no runs', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows');
    expect(await screen.findByRole('cell', { name: 'No se han encontrado registros' })).toBeTruthy();
    for (const header of ['Robot y tipo de lanzamiento', 'Fecha y hora', 'Resultado', 'Duración', 'Coste', 'Sin errores', 'Acciones']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
    expect((screen.getByRole('button', { name: 'Descargar informe' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks the server for pages of 12 and filters by launch type from the first page', async () => {
    const runs = [...manyRuns(20), ...manyRuns(5, { scheduled: true }).map((run, index) => ({ ...run, _id: `sched-${index}` }))];
    const calls = stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': historyOf(runs) });
    renderAt('/flows');
    expect(await screen.findByText('Página 1 de 3')).toBeTruthy();
    expect(historyRows()).toHaveLength(12);
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Página 2 de 3')).toBeTruthy();
    expect(calls).toContain('GET /api/flowlog?start=12&limit=12');

    fireEvent.click(screen.getByRole('radio', { name: 'Programados y remotos' }));
    expect(await screen.findByText('5 ejecuciones')).toBeTruthy();
    expect(calls).toContain('GET /api/flowlog?start=0&limit=12&scheduled=true');
    expect(historyRows()).toHaveLength(5);
    expect(screen.queryByRole('navigation', { name: 'Paginación' })).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Manuales' }));
    expect(await screen.findByText('20 ejecuciones')).toBeTruthy();
    expect(calls).toContain('GET /api/flowlog?start=0&limit=12&scheduled=false');
    expect(screen.getByText('Página 1 de 2')).toBeTruthy();
  });

  it("names the machine of desktop runs, and 'Lanzamiento remoto' for those launched on it from elsewhere", async () => {
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([
        flowLog({ _id: 'remota', machine: { _id: MESA, name: 'PC Oficina' }, remote: true, scheduled: true }),
        flowLog({ _id: 'aqui', machine: { _id: MESA, name: 'Mesa de Ana' } }),
        flowLog({ _id: 'servidor' }),
      ]),
    });
    renderAt('/flows');
    await screen.findByText('3 ejecuciones');
    const robots = historyRows().map((row) => within(row).getAllByRole('cell')[1]?.textContent);
    expect(robots).toEqual(['Validar identificadoresLanzamiento remotoEn PC Oficina', 'Validar identificadoresManualEn Mesa de Ana', 'Validar identificadoresManual']);
  });

  it('downloads the report of the filter shown as an .xlsx', async () => {
    const calls = stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf(manyRuns(3)),
      'GET /api/flowlog/report': () => jsonResponse(200, { filename: 'Historial de robots 14-07-2025.xlsx', base64: btoa('PK\x03\x04') }),
    });
    const blobs: Blob[] = [];
    Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:informe'), revokeObjectURL: () => undefined });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderAt('/flows');
    await screen.findByText('3 ejecuciones');
    fireEvent.click(screen.getByRole('radio', { name: 'Manuales' }));
    await screen.findByText('3 ejecuciones');
    fireEvent.click(screen.getByRole('button', { name: 'Descargar informe' }));
    await waitFor(() => expect(downloads).toEqual(['Historial de robots 14-07-2025.xlsx']));
    expect(calls).toContain('GET /api/flowlog/report?scheduled=false');
    expect(new Uint8Array(await blobs[0]!.arrayBuffer())).toEqual(new Uint8Array([0x50, 0x4b, 0x03, 0x04]));
  });

  it('says when the report fails', async () => {
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf(manyRuns(1)),
      'GET /api/flowlog/report': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }),
    });
    renderAt('/flows');
    await screen.findByText('1 ejecución');
    fireEvent.click(screen.getByRole('button', { name: 'Descargar informe' }));
    expect(await screen.findByText('No se ha podido generar el informe')).toBeTruthy();
  });

  it('says when the history cannot be loaded', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': () => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) });
    renderAt('/flows');
    expect((await screen.findByRole('alert')).textContent).toContain('No se ha podido cargar el historial de robots.');
    expect(screen.queryByRole('cell', { name: 'No se han encontrado registros' })).toBeNull();
  });
});
