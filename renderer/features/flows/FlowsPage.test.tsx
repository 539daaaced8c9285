/** /flows: the catalogue and a selected robot (its detail, instructions and schedules). The history: FlowsPage.history*.test.tsx. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { catalogue, catalogueOf, currentPath, historyOf, renderAt, schedulesOf, setUpFlowsPageTests, stubApi } from './test/renderFlows.tsx';
import { fieA3, flowDefinition, modelo111, scheduledFlow, validarIdentificadores } from './testData.ts';

setUpFlowsPageTests();

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
    // Ordered by `order`, hidden inputs left out, required ones marked. The section shows its spinner until the definition loads (slow under a full suite's load).
    const items = await within(inputs).findAllByRole('listitem', {}, { timeout: 5_000 });
    expect(items.map((item) => item.textContent)).toEqual([
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
