import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { FlowLog, FlowSummary, ScheduledFlow } from '#shared/api/flows.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { preloadModal } from '../../ui/Modal.tsx';
import { jsonResponse, renderWithApp, signedInState, testUser } from '../../test/renderApp.tsx';
import FlowsPage from './FlowsPage.tsx';
import { fieA3, flowDefinition, flowLog, flowLogDetail, modelo111, scheduledFlow, validarIdentificadores } from './testData.ts';

// The dialog and react-markdown load lazily; fetch them once up front so no test races a cold import.
beforeAll(() => Promise.all([preloadModal(), import('../../ui/Markdown.tsx')]), 30_000);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Handler = (url: URL) => Response | Promise<Response>;

/** fetch answering by "METHOD /path" (query string apart, for the handler to read); records "METHOD /path?query". */
function stubApi(routes: Record<string, Handler>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    calls.push(`${key}${url.search}`);
    const handler = routes[key];
    return handler ? handler(url) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

/** GET flowlog over a list of runs: the server's paging and scheduled filter. */
function historyOf(runs: FlowLog[]): Handler {
  return (url) => {
    const scheduled = url.searchParams.get('scheduled');
    const selected = scheduled === null ? runs : runs.filter((run) => run.scheduled === (scheduled === 'true'));
    const start = Number(url.searchParams.get('start') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 12);
    return jsonResponse(200, { total: selected.length, items: selected.slice(start, start + limit) });
  };
}

const catalogueOf = (items: FlowSummary[]): Handler => () => jsonResponse(200, { items });
const schedulesOf = (items: ScheduledFlow[]): Handler => () => jsonResponse(200, { items });

function CurrentPath() {
  return <output aria-label="ruta">{useLocation().pathname}</output>;
}

const firm = { currencies: 'crédito|créditos' };

function renderAt(path: string, { embedded = false, bridge }: { embedded?: boolean; bridge?: BridgeClient } = {}) {
  return renderWithApp(
    <Routes>
      <Route path="/flows/:id?" element={<><FlowsPage /><CurrentPath /></>} />
      <Route path="/launcher/:id" element={<CurrentPath />} />
    </Routes>,
    { path, embedded, bridge, toasts: true, preloadedState: signedInState(testUser({}, firm)) },
  );
}

const currentPath = () => screen.getByRole('status', { name: 'ruta' }).textContent;
const catalogue = () => screen.getByRole('navigation', { name: 'Catálogo de robots' });
const historyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).getAllByRole('row');

describe('FlowsPage catalogue', () => {
  it('lists the robots by group with a BETA tag outside the desktop app', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([validarIdentificadores, modelo111, fieA3]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows');
    expect(screen.getByRole('heading', { level: 1, name: 'Robots' })).toBeTruthy();
    const laboral = await screen.findByRole('region', { name: 'Laboral' });
    expect(within(laboral).getAllByRole('link').map((link) => link.textContent)).toEqual(['FIE a incidencias A3BETA', 'Validar identificadoresBETA']);
    const groups = within(catalogue()).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(groups).toEqual(['Fiscal', 'Laboral']);
  });

  it('has no BETA tag inside the desktop app', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([validarIdentificadores]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows', { embedded: true });
    expect((await screen.findByRole('link', { name: /Validar identificadores/ })).textContent).toBe('Validar identificadores');
    expect(screen.queryByText('BETA')).toBeNull();
  });

  it('searches without caring for case or accents, and says when nothing matches', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([validarIdentificadores, modelo111, fieA3]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows');
    await screen.findByRole('region', { name: 'Fiscal' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robots' }), { target: { value: 'SILTRA' } });
    expect(within(catalogue()).getAllByRole('link').map((link) => link.textContent)).toEqual(['Historial de robots', 'FIE a incidencias A3BETA']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robots' }), { target: { value: 'declaracion retenciones' } });
    expect(screen.getByRole('link', { name: /Modelo 111/ })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robots' }), { target: { value: 'nóminas' } });
    expect(screen.getByText('Ningún robot coincide con tu búsqueda.')).toBeTruthy();
  });

  it('says so when the firm has no robots', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows');
    expect(await screen.findByText('Todavía no hay robots disponibles para tu asesoría.')).toBeTruthy();
  });

  it('reports a catalogue that fails to load and loads it again on retry', async () => {
    let fail = true;
    stubApi({
      'GET /api/browserflow/flow': () => (fail ? jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'x' }) : jsonResponse(200, { items: [fieA3] })),
      'GET /api/flowlog': historyOf([]),
    });
    renderAt('/flows');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No se ha podido cargar la lista de robots.');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('link', { name: /FIE a incidencias A3/ })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('clears an id that matches no robot', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([validarIdentificadores]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows/robot-que-no-existe');
    await waitFor(() => expect(currentPath()).toBe('/flows'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Historial de robots' })).toBeTruthy();
  });
});

describe('FlowsPage selected robot', () => {
  const routes = (schedules: ScheduledFlow[] = []) => ({
    'GET /api/browserflow/flow': catalogueOf([validarIdentificadores, modelo111]),
    'GET /api/browserflow/flow/validar-identificadores': () => jsonResponse(200, flowDefinition()),
    'GET /api/browserflow/schedule': schedulesOf(schedules),
    'GET /api/flowlog': historyOf([]),
  });

  it('selecting a robot puts it in the address and shows what it does, costs and asks for', async () => {
    const calls = stubApi(routes());
    renderAt('/flows');
    fireEvent.click(await screen.findByRole('link', { name: /Validar identificadores/ }));
    expect(currentPath()).toBe('/flows/validar-identificadores');
    // The robot's card comes with its definition, fetched after the click: wait for it (a loaded machine
    // took over a second), never query it right away.
    const robot = await screen.findByRole('article', { name: 'Validar identificadores' }, { timeout: 5_000 });
    expect(robot.textContent).toContain('Comprueba los NIF/NIE');
    expect(robot.textContent).toContain('Excel, ODS o CSV; se comprueba la primera hoja.');
    expect(robot.textContent).toContain('En el servidor');
    // The firm calls its credits 'créditos'.
    expect(within(robot).getByLabelText('Coste: 1 crédito por bloque de 100 filas')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Validar identificadores/ }).getAttribute('aria-current')).toBe('page');

    const inputs = await screen.findByRole('region', { name: 'Qué te pedirá' });
    // Ordered by `order`, hidden inputs left out, required ones marked.
    expect(within(inputs).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Libro de trabajadoresObligatorioExcel, ODS o CSV.',
      'Columnas a comprobarOpcional',
    ]);
    expect(screen.getByRole('link', { name: 'Descargar plantilla' }).getAttribute('href')).toBe('/api/browserflow/flow/template/validar-identificadores');
    fireEvent.click(screen.getByRole('link', { name: 'Abrir asistente' }));
    expect(currentPath()).toBe('/launcher/validar-identificadores');
    expect(calls).toContain('GET /api/browserflow/schedule?user=ana%40asesoria.es');
  }, 15_000);

  it('shows a desktop robot as such, with no template or instructions buttons it does not have', async () => {
    stubApi({ ...routes(), 'GET /api/browserflow/flow/modelo-111': () => jsonResponse(200, flowDefinition({ id: 'modelo-111', runsOn: 'desktop', sectionSetup: { builder: [{ ref: 'a', template: 'InputComponents', title: 'A', builder: [] }] } })) });
    renderAt('/flows/modelo-111');
    const robot = await screen.findByRole('article', { name: 'Modelo 111' });
    expect(robot.textContent).toContain('En el escritorio');
    expect(within(robot).getByLabelText('Coste: 2 créditos por declaración')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Descargar plantilla' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ver instrucciones' })).toBeNull();
    expect(await screen.findByText('Este robot no necesita datos de entrada.')).toBeTruthy();
  });

  it('opens the instructions as markdown, with no raw HTML and links that open outside', async () => {
    stubApi(routes());
    renderAt('/flows/validar-identificadores');
    fireEvent.click(await screen.findByRole('button', { name: 'Ver instrucciones' }));
    const dialog = await screen.findByRole('dialog', { name: 'Instrucciones: Validar identificadores' });
    expect(await within(dialog).findByRole('heading', { name: 'Cómo se usa' })).toBeTruthy();
    const link = within(dialog).getByRole('link', { name: 'la guía' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(dialog.querySelector('img')).toBeNull();
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Cerrar' })[0] as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists only this robot\'s schedules, in Madrid time with their repeat', async () => {
    stubApi(
      routes([
        scheduledFlow({ _id: 'late', scheduledDate: '2025-07-01T16:00:00.000Z', repeat: true, every: 3, interval: 'days' }),
        scheduledFlow({ _id: 'early', scheduledDate: '2025-01-15T08:30:00.000Z' }),
        scheduledFlow({ _id: 'other', browserFlow: 'modelo-111', browserFlowName: 'Modelo 111' }),
      ]),
    );
    renderAt('/flows/validar-identificadores');
    const list = await screen.findByRole('list', { name: 'Programaciones de este robot' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent?.replace('Eliminar', ''))).toEqual([
      '15/01/2025 a las 09:30Una sola vez',
      '01/07/2025 a las 18:00Se lanza cada 3 días',
    ]);
  });

  it('says when the robot has no schedules', async () => {
    stubApi(routes([scheduledFlow({ browserFlow: 'modelo-111' })]));
    renderAt('/flows/validar-identificadores');
    expect(await screen.findByText(/Este robot no tiene ninguna programación/)).toBeTruthy();
  });

  it('deletes a schedule only after confirming', async () => {
    let schedules = [scheduledFlow({ _id: 'sched-1', scheduledDate: '2025-01-15T08:30:00.000Z' })];
    const calls = stubApi({
      ...routes(),
      'GET /api/browserflow/schedule': () => jsonResponse(200, { items: schedules }),
      'DELETE /api/browserflow/schedule/sched-1': () => {
        schedules = [];
        return new Response(null, { status: 204 });
      },
    });
    renderAt('/flows/validar-identificadores');
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar la programación del 15/01/2025 a las 09:30' }));
    let dialog = await screen.findByRole('dialog', { name: 'Eliminar programación' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.startsWith('DELETE'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar la programación del 15/01/2025 a las 09:30' }));
    dialog = await screen.findByRole('dialog', { name: 'Eliminar programación' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText(/Este robot no tiene ninguna programación/)).toBeTruthy();
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /api/browserflow/schedule/sched-1']);
    expect(await screen.findByText('Programación eliminada')).toBeTruthy();
  });

  it('keeps a schedule the server refused to delete and says so', async () => {
    stubApi({
      ...routes([scheduledFlow({ scheduledDate: '2025-01-15T08:30:00.000Z' })]),
      'DELETE /api/browserflow/schedule/sched-1': () => jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' }),
    });
    renderAt('/flows/validar-identificadores');
    fireEvent.click(await screen.findByRole('button', { name: /Eliminar la programación/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar programación' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('No se ha podido eliminar la programación')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Programaciones de este robot' })).toBeTruthy();
  });
});

const MESA = '33333333-3333-4333-8333-333333333333';

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
    expect(first?.slice(1)).toEqual(['Validar identificadoresManual', '14/07/2025 09:05', 'Finalizado', '12 créditos', '2 de 4 50\u00a0%. Menos del 75 % de iteraciones correctas']);
    expect(second?.slice(1, 5)).toEqual(['Este robot ya no forma parte de nuestra familiaLanzamiento remoto', '14/07/2025 09:05', 'Insuficientes créditos', '0 créditos']);
    expect(third?.slice(1, 4)).toEqual(['Validar identificadoresProgramado', '01/01/2026 00:15', 'Error inesperado']);
    expect(screen.getByText('2 de 4').closest('.flows-ratio')?.className).toContain('flows-ratio--low');
  });

  it('says when there are no runs', async () => {
    stubApi({ 'GET /api/browserflow/flow': catalogueOf([]), 'GET /api/flowlog': historyOf([]) });
    renderAt('/flows');
    expect(await screen.findByRole('cell', { name: 'No se han encontrado registros' })).toBeTruthy();
    for (const header of ['Robot y tipo de lanzamiento', 'Fecha y hora', 'Resultado', 'Coste', 'Iteraciones']) {
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
