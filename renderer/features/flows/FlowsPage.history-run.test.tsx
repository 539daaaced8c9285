/** /flows: a history run expanded: its log a page at a time, its output files, and where its folder opens. */
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BridgeClient } from '../../bridge/client.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { MESA, catalogueOf, historyOf, renderAt, setUpFlowsPageTests, stubApi } from './test/renderFlows.tsx';
import { flowLog, flowLogDetail } from './testData.ts';

setUpFlowsPageTests();

describe('FlowsPage history', () => {
  it('expands a run to load its log lines and output files', async () => {
    const calls = stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([flowLog({ _id: 'run-7', outputFileNames: ['resultado.xlsx'] })]),
      'GET /api/flowlog/run-7': () =>
        jsonResponse(200, flowLogDetail({
          _id: 'run-7',
          outputFileNames: ['resultado.xlsx'],
          logStreams: [
            { level: 'info', timestamp: '2025-07-14T07:05:03.000Z', text: 'Leyendo 250 filas' },
            { level: 'warn', timestamp: '2025-07-14T07:05:09.000Z', text: 'Fila 12: NIF vacío' },
          ],
        })),
    });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    expect(await screen.findByText('Leyendo 250 filas')).toBeTruthy();
    const lines = screen.getAllByRole('listitem').filter((item) => item.className.includes('flows-log__line'));
    expect(lines.map((line) => line.textContent)).toEqual(['Información09:05:03Leyendo 250 filas', 'Aviso09:05:09Fila 12: NIF vacío']);
    expect(screen.getByRole('link', { name: 'Descargar resultado.xlsx' }).getAttribute('href')).toBe('/api/flowlog/run-7/outputs/resultado.xlsx');
    // A support ticket about this run: /help opens its form with the run chosen.
    expect(screen.getByRole('link', { name: 'Pedir ayuda sobre esta ejecución' }).getAttribute('href')).toBe('/help?nueva=1&ejecucion=run-7');
    expect(calls).toContain('GET /api/flowlog/run-7');
  });

  it("loads a long log a page at a time: 'Cargar más líneas' adds the next lines below, busy while it loads, and keeps the focus", async () => {
    const line = (seq: number) => ({ level: 'info' as const, timestamp: '2025-07-14T07:05:03.000Z', text: `Fila ${seq + 1} comprobada` });
    // Five lines, two a page: the server answers those after `after` (seq), and where the next page starts.
    const pageAfter = (after: number | null) => {
      const from = after === null ? 0 : after + 1;
      const seqs = [0, 1, 2, 3, 4].filter((seq) => seq >= from).slice(0, 2);
      return flowLogDetail({ _id: 'run-7', logStreams: seqs.map(line), logTotal: 5, logHasMore: (seqs.at(-1) ?? 4) < 4, logNext: seqs.at(-1) ?? after });
    };
    let release: () => void = () => undefined;
    const calls = stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([flowLog({ _id: 'run-7' })]),
      'GET /api/flowlog/run-7': async (url) => {
        const after = url.searchParams.get('after');
        // The second page waits for the test, to see the button busy.
        if (after === '1') await new Promise<void>((resolve) => (release = resolve));
        return jsonResponse(200, pageAfter(after === null ? null : Number(after)));
      },
    });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    const log = await screen.findByRole('list', { name: 'Registro' });
    const texts = () => within(log).getAllByRole('listitem').map((item) => item.querySelector('.flows-log__text')?.textContent);
    expect(texts()).toEqual(['Fila 1 comprobada', 'Fila 2 comprobada']);
    expect(screen.getByText('Mostrando 2 de 5 líneas')).toBeTruthy();

    // A native button: in the tab order, activated by Enter and Space like any other.
    const more = screen.getByRole('button', { name: 'Cargar más líneas' });
    expect(more.tagName).toBe('BUTTON');
    expect(more.getAttribute('type')).toBe('button');
    expect(more.hasAttribute('disabled') || more.getAttribute('tabindex') === '-1').toBe(false);
    more.focus();
    fireEvent.click(more);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cargar más líneas' }).getAttribute('aria-busy')).toBe('true'));
    expect(screen.getByText('Cargando más líneas…')).toBeTruthy();
    await act(async () => release());
    await waitFor(() => expect(texts()).toHaveLength(4));
    expect(texts()).toEqual(['Fila 1 comprobada', 'Fila 2 comprobada', 'Fila 3 comprobada', 'Fila 4 comprobada']);
    expect(screen.getByText('Mostrando 4 de 5 líneas')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cargar más líneas' })));

    // The last page: the button goes, and the focus moves to the list.
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más líneas' }));
    await waitFor(() => expect(texts()).toHaveLength(5));
    expect(screen.queryByRole('button', { name: 'Cargar más líneas' })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('list', { name: 'Registro' })));
    expect(calls.filter((call) => call.startsWith('GET /api/flowlog/run-7'))).toEqual(['GET /api/flowlog/run-7', 'GET /api/flowlog/run-7?after=1', 'GET /api/flowlog/run-7?after=3']);
  });

  it('says when more lines cannot be loaded, and tries again', async () => {
    let failing = true;
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([flowLog({ _id: 'run-7' })]),
      'GET /api/flowlog/run-7': (url) => {
        if (url.searchParams.get('after') === null) {
          return jsonResponse(200, flowLogDetail({ _id: 'run-7', logStreams: [{ level: 'info', timestamp: '2025-07-14T07:05:03.000Z', text: 'Primera' }], logTotal: 2, logHasMore: true, logNext: 0 }));
        }
        if (failing) return jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Error interno del servidor' });
        return jsonResponse(200, flowLogDetail({ _id: 'run-7', logStreams: [{ level: 'warn', timestamp: '2025-07-14T07:05:04.000Z', text: 'Segunda' }], logTotal: 2, logHasMore: false, logNext: 1 }));
      },
    });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cargar más líneas' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se han podido cargar más líneas. Inténtalo de nuevo.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cargar más líneas' })));
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Cargar más líneas' }));
    expect(await screen.findByText('Segunda')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("lists an expired file by name as 'Caducado', with no link; the others download until their date", async () => {
    const run = flowLogDetail({
      _id: 'run-7',
      outputFileNames: ['antiguo.xlsx', 'reciente.xlsx'],
      outputFiles: [
        { name: 'antiguo.xlsx', expiresAt: '2025-06-13T07:05:00.000Z', expired: true },
        { name: 'reciente.xlsx', expiresAt: '2025-08-13T07:05:00.000Z', expired: false },
      ],
    });
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': historyOf([run]), 'GET /api/flowlog/run-7': () => jsonResponse(200, run) });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    const recent = await screen.findByRole('link', { name: 'Descargar reciente.xlsx' });
    expect(recent.getAttribute('href')).toBe('/api/flowlog/run-7/outputs/reciente.xlsx');
    expect(recent.closest('li')?.textContent).toContain('Disponible hasta el 13/08/2025');
    expect(screen.queryByRole('link', { name: 'Descargar antiguo.xlsx' })).toBeNull();
    const old = screen.getByText('antiguo.xlsx').closest('li');
    expect(old?.textContent).toContain('Caducado');
    expect(old?.querySelector('a')).toBeNull();
    expect(screen.getByText(/Los archivos caducados ya no se pueden descargar/)).toBeTruthy();
  });

  it("a desktop run's files kept on its PC show by name; 'Abrir carpeta' only in the desktop app on that PC, with its error toast", async () => {
    const kept = flowLogDetail({
      _id: 'run-8', machine: { _id: MESA, name: 'Mesa de Ana' }, remote: false, outputFolder: '/home/ana/AutoAsesor/run-8', outputFileNames: ['justificante.pdf'],
    });
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([kept]),
      'GET /api/flowlog/run-8': () => jsonResponse(200, kept),
    });
    const opened: unknown[] = [];
    let statusAsked = 0;
    const desktop = (machineId: string) => ({
      kind: 'agent',
      available: true,
      invoke: async (command: string, args: unknown) => {
        if (command === 'GetDeviceStatus') statusAsked += 1;
        if (command === 'GetDeviceStatus') return { ok: true, data: { linked: true, serverUrl: window.location.origin, machine: { _id: machineId, name: 'PC' }, problem: null } };
        if (command === 'OpenFolder') {
          opened.push(args);
          return { ok: false, error: { code: 'NOT_FOUND', message: 'Esa carpeta ya no existe' } };
        }
        return { ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'No' } };
      },
      on: () => () => undefined,
    }) as unknown as BridgeClient;

    // On the web: the names, no links, nothing to open.
    const web = renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    expect(await screen.findByText('justificante.pdf')).toBeTruthy();
    expect(screen.getByText(/Los archivos se guardaron en Mesa de Ana/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Descargar/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Abrir carpeta' })).toBeNull();
    web.unmount();

    // In the desktop app on another PC: still nothing to open.
    const elsewhere = renderAt('/flows', { embedded: true, bridge: desktop('99999999-9999-4999-8999-999999999999') });
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    expect(await screen.findByText('justificante.pdf')).toBeTruthy();
    await waitFor(() => expect(statusAsked).toBe(1));
    await act(async () => {});
    expect(screen.queryByRole('button', { name: 'Abrir carpeta' })).toBeNull();
    elsewhere.unmount();

    // On the PC that ran it: the folder opens (here it is gone, and the toast says so).
    renderAt('/flows', { embedded: true, bridge: desktop(MESA) });
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Abrir carpeta' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No se ha podido abrir la carpeta: Esa carpeta ya no existe');
    expect(opened).toEqual([{ folder: '/home/ana/AutoAsesor/run-8' }]);
  });

  it('a remote launch sent its files to the server: they download', async () => {
    const remote = flowLogDetail({ _id: 'run-9', machine: { _id: MESA, name: 'PC Oficina' }, remote: true, outputFolder: 'C:\\run-9', outputFileNames: ['justificante.pdf'] });
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': historyOf([remote]), 'GET /api/flowlog/run-9': () => jsonResponse(200, remote) });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    expect((await screen.findByRole('link', { name: 'Descargar justificante.pdf' })).getAttribute('href')).toBe('/api/flowlog/run-9/outputs/justificante.pdf');
  });

  it('says when a run\'s log cannot be loaded', async () => {
    stubApi({
      'GET /api/browserflow/flow': catalogueOf([]),
      'GET /api/flowlog': historyOf([flowLog({ _id: 'run-7' })]),
      'GET /api/flowlog/run-7': () => jsonResponse(404, { statusCode: 404, code: 'RUN_NOT_FOUND', message: 'No se ha encontrado esta ejecución' }),
    });
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('button', { name: 'Mostrar detalle' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No se ha podido cargar el registro de esta ejecución.');
  });
});
