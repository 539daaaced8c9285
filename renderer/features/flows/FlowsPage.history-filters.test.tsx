/** /flows: the history's search, robot and date filters (kept in the address), its duration column, and 'Cancelar' / 'Detener'. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../test/renderApp.tsx';
import { catalogueOf, currentQuery, historyOf, historyRows, renderAt, setUpFlowsPageTests, stubApi } from './test/renderFlows.tsx';
import { flowLog, validarIdentificadores } from './testData.ts';

setUpFlowsPageTests();

const flowlogCalls = (calls: string[]) => calls.filter((call) => call.startsWith('GET /api/flowlog?'));
const lastFlowlogCall = (calls: string[]) => flowlogCalls(calls).at(-1) ?? '';

describe('FlowsPage history filters', () => {
  it('reads the filters from the address on load and asks the server with them', async () => {
    const calls = stubApi({ 'GET /api/browserflow/flow': catalogueOf([validarIdentificadores]), 'GET /api/flowlog': historyOf([flowLog()]) });
    renderAt(`/flows?q=valid&robot=${validarIdentificadores.id}&desde=2025-07-01&hasta=2025-07-31&tipo=manual`);
    await screen.findByText('1 ejecución');
    const query = new URLSearchParams(lastFlowlogCall(calls).split('?')[1]);
    expect(Object.fromEntries(query)).toEqual({ start: '0', limit: '12', scheduled: 'false', q: 'valid', flow: validarIdentificadores.id, from: '2025-07-01', to: '2025-07-31' });
    expect((screen.getByRole('searchbox', { name: 'Buscar por robot' }) as HTMLInputElement).value).toBe('valid');
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Robot' }) as HTMLSelectElement).value).toBe(validarIdentificadores.id));
    expect((screen.getByLabelText('Desde') as HTMLInputElement).value).toBe('2025-07-01');
    expect((screen.getByLabelText('Hasta') as HTMLInputElement).value).toBe('2025-07-31');
    expect(screen.getByRole('radio', { name: 'Manuales' }).getAttribute('aria-checked')).toBe('true');
  });

  it('writes each filter to the address, debounces typing, refuses a reversed range and clears them all', async () => {
    const calls = stubApi({ 'GET /api/browserflow/flow': catalogueOf([validarIdentificadores]), 'GET /api/flowlog': historyOf([flowLog()]) });
    renderAt('/flows');
    await screen.findByText('1 ejecución');

    const search = screen.getByRole('searchbox', { name: 'Buscar por robot' });
    fireEvent.change(search, { target: { value: 'v' } });
    fireEvent.change(search, { target: { value: 'vali' } });
    // Nothing asked while typing: one request once it pauses, with the whole text.
    expect(flowlogCalls(calls).some((call) => call.includes('q='))).toBe(false);
    await waitFor(() => expect(currentQuery()).toBe('?q=vali'));
    await waitFor(() => expect(lastFlowlogCall(calls)).toContain('q=vali'));
    expect(flowlogCalls(calls).filter((call) => call.includes('q=v&') || call.endsWith('q=v'))).toEqual([]);

    fireEvent.change(await screen.findByRole('combobox', { name: 'Robot' }), { target: { value: validarIdentificadores.id } });
    await waitFor(() => expect(lastFlowlogCall(calls)).toContain(`flow=${validarIdentificadores.id}`));
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2025-07-10' } });
    await waitFor(() => expect(lastFlowlogCall(calls)).toContain('from=2025-07-10'));
    expect(new URLSearchParams(currentQuery() ?? '').get('desde')).toBe('2025-07-10');
    expect(new URLSearchParams(currentQuery() ?? '').get('robot')).toBe(validarIdentificadores.id);

    // 'Hasta' before 'Desde': said on screen, and not sent.
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2025-07-01' } });
    expect((await screen.findByRole('alert')).textContent).toContain('«Hasta» es anterior a «Desde»');
    expect(lastFlowlogCall(calls)).not.toContain('to=');
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2025-07-20' } });
    await waitFor(() => expect(lastFlowlogCall(calls)).toContain('to=2025-07-20'));
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtros' }));
    await waitFor(() => expect(currentQuery()).toBe(''));
    expect((screen.getByRole('combobox', { name: 'Robot' }) as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Desde') as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('searchbox', { name: 'Buscar por robot' }) as HTMLInputElement).value).toBe('');
  });

  it("shows each run's duration, and '—' for one that has not ended", async () => {
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([
        flowLog({ _id: 'a', createAt: '2025-07-14T07:05:00.000Z', finishedAt: '2025-07-14T07:06:05.000Z' }),
        flowLog({ _id: 'b', state: 'running', result: null, finishedAt: null, executionToken: 'token-b' }),
      ]),
    });
    renderAt('/flows');
    await screen.findByText('2 ejecuciones');
    const durations = historyRows().map((row) => within(row).getAllByRole('cell')[4]?.textContent);
    expect(durations).toEqual(['1 min 05 s', '—']);
  });

  it("cancels a queued run after confirming, and offers 'Detener' for a running one", async () => {
    let stopped = false;
    const queued = flowLog({ _id: 'cola', state: 'queued', result: null, finishedAt: null, executionToken: 'token-cola', remote: true, machine: { _id: null, name: 'PC Oficina' } });
    const calls = stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': (url) =>
        historyOf([
          stopped ? { ...queued, state: 'finished', result: 'FlowAborted', stoppedByUser: true, finishedAt: queued.createAt, executionToken: undefined } : queued,
          flowLog({ _id: 'marcha', state: 'running', result: null, finishedAt: null, executionToken: 'token-marcha' }),
          flowLog({ _id: 'hecha' }),
        ])(url),
      'POST /api/browserflow/execution/state/token-cola/stop': () => {
        stopped = true;
        return jsonResponse(200, {
          state: 'finished', executionToken: 'token-cola', runId: 'cola', successfulIterations: 0, totalIterations: 0, consoleLog: [],
          output: { status: 202, data: { runId: 'cola', files: [], message: 'Robot detenido', usageUnits: 0, usageRatio: 1, cost: 0 }, executionToken: 'token-cola', consoleLog: [] },
        });
      },
    });
    renderAt('/flows');
    await screen.findByText('3 ejecuciones');
    const [queuedRow, runningRow, doneRow] = historyRows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(runningRow).getByRole('button', { name: 'Detener la ejecución de Validar identificadores' })).toBeTruthy();
    expect(within(doneRow).queryByRole('button', { name: /Cancelar|Detener/ })).toBeNull();

    // Asked first: closing the dialog cancels nothing.
    fireEvent.click(within(queuedRow).getByRole('button', { name: 'Cancelar la ejecución de Validar identificadores' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Cancelar esta ejecución?' });
    expect(dialog.textContent).toContain('sin cobrarte nada');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar ejecución' }));
    expect(await screen.findByText('Ejecución cancelada. No se ha cobrado nada.')).toBeTruthy();
    expect(calls).toContain('POST /api/browserflow/execution/state/token-cola/stop');
    // The history is asked again: the run now reads 'Robot detenido', with nothing left to cancel.
    await waitFor(() => expect(within(historyRows()[0] as HTMLElement).queryByRole('button', { name: /Cancelar la ejecución/ })).toBeNull());
    expect(within(historyRows()[0] as HTMLElement).getByText('Robot detenido')).toBeTruthy();
  });
});
