/** /smartbuilder: the list of macros and the editor of one, on a stubbed API. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Macro, MacroSummary } from '#shared/api/macros.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import { preloadModal } from '../../ui/Modal.tsx';
import { renderWithApp, signedInState } from '../../test/renderApp.tsx';
import { answer, stubApi } from '../../test/stubApi.ts';
import SmartBuilderPage from './SmartBuilderPage.tsx';

vi.setConfig({ testTimeout: 15_000 });
const slow = { timeout: 4000 };
beforeAll(() => preloadModal(), 30_000);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ID = '11111111-1111-4111-8111-111111111111';
const definition: MacroDefinition = {
  schemaVersion: 1,
  name: 'Consulta de afiliación',
  description: 'Busca un trabajador en el portal',
  startUrl: 'https://portal.example/login',
  inputs: [],
  steps: [
    { id: 'a1', type: 'goto', url: { kind: 'text', text: 'https://portal.example/login' } },
    { id: 'a2', type: 'fill', target: 'internal:label="Usuario"i', value: { kind: 'text', text: 'ana' } },
    { id: 'a3', type: 'fill', target: 'internal:label="Contraseña"i', value: { kind: 'secret', ref: 'secret-ref-01' } },
    { id: 'a4', type: 'click', target: 'internal:role=button[name="Entrar"i]' },
  ],
  charge: { per: 'run', slans: 1 },
  outputFileName: 'resultado.xlsx',
  timeLimitSeconds: 600,
};
const summary: MacroSummary = {
  id: ID, flowId: `macro-${ID}`, name: definition.name, description: definition.description, version: 2, steps: 4, runsOn: 'desktop',
  access: 'owner', ownerName: 'Ana', updatedAt: '2026-12-01T10:00:00.000Z',
};
const shared: MacroSummary = { ...summary, id: '22222222-2222-4222-8222-222222222222', flowId: 'macro-22222222-2222-4222-8222-222222222222', name: 'Descarga de recibos', access: 'view', ownerName: 'Luis' };
const macro = (over: Partial<MacroDefinition> = {}, version = 2): Macro => ({
  ...summary,
  version,
  definition: { ...definition, ...over },
  versions: [
    { version: 2, note: 'Con el NIF', createdAt: '2026-12-01T10:00:00.000Z', createdBy: 'Ana' },
    { version: 1, note: '', createdAt: '2026-11-30T10:00:00.000Z', createdBy: 'Ana' },
  ],
});

const renderPage = (path = '/smartbuilder') => renderWithApp(<SmartBuilderPage />, { path, toasts: true, preloadedState: signedInState() });
const stepItem = (number: number) => screen.getByText(`Paso ${number}`, { selector: '.sb-step__number' }).closest('li')!;

describe('SmartBuilderPage list', () => {
  it('lists own and shared macros, filters by scope and search', async () => {
    stubApi({ 'GET /api/macro': answer({ items: [summary, shared] }) });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Consulta de afiliación' }, slow)).toBeTruthy();
    const sharedCard = screen.getByRole('button', { name: 'Descarga de recibos' }).closest('li')!;
    expect(within(sharedCard).getByText('Solo lectura')).toBeTruthy();
    expect(within(sharedCard).getByText('De Luis')).toBeTruthy();
    expect(within(sharedCard).queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(within(sharedCard).getByRole('link', { name: 'Probar Descarga de recibos en el lanzador' }).getAttribute('href')).toBe(`/launcher/${shared.flowId}`);

    fireEvent.click(screen.getByRole('radio', { name: 'Míos' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Descarga de recibos' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Consulta de afiliación' })).toBeTruthy();
  });

  it('shows the empty state with a way to start', async () => {
    stubApi({ 'GET /api/macro': answer({ items: [] }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Aún no tienes robots' }, slow)).toBeTruthy();
    fireEvent.click(within(screen.getByRole('region', { name: 'Aún no tienes robots' })).getByRole('button', { name: 'Nuevo robot' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Nuevo robot' }, slow)).toBeTruthy();
  });

  it('imports a bad file and lists the problems the server found', async () => {
    const calls = stubApi({
      'GET /api/macro': answer({ items: [summary] }),
      'POST /api/macro/import': answer({
        statusCode: 400, code: 'MACRO_FILE_INVALID', message: 'El archivo no es un robot de AutoAsesor válido',
        issues: [{ path: 'macro', message: 'steps.0.target: Indica el elemento de la página' }, { path: 'macro', message: 'El paso 2 (Subir un fichero) usa el dato «fichero», que no existe' }],
      }, 400),
    });
    renderPage();
    await screen.findByRole('button', { name: 'Consulta de afiliación' }, slow);
    const file = new File([JSON.stringify({ format: 'autoasesor-macro', version: 1, macro: { name: 'x' } })], 'robot.json', { type: 'application/json' });
    fireEvent.change(screen.getByLabelText('Importar un robot desde un archivo .json'), { target: { files: [file] } });
    const alert = await screen.findByRole('alert', {}, slow);
    expect(within(alert).getByText('No se ha podido importar el archivo')).toBeTruthy();
    expect(within(alert).getByText('steps.0.target: Indica el elemento de la página')).toBeTruthy();
    expect(within(alert).getByText('El paso 2 (Subir un fichero) usa el dato «fichero», que no existe')).toBeTruthy();
    expect((calls.find((call) => call.key === 'POST /api/macro/import')?.body as { format: string }).format).toBe('autoasesor-macro');
  });

  it('says a file that is not JSON is not a robot, without calling the server', async () => {
    const calls = stubApi({ 'GET /api/macro': answer({ items: [summary] }) });
    renderPage();
    await screen.findByRole('button', { name: 'Consulta de afiliación' }, slow);
    fireEvent.change(screen.getByLabelText('Importar un robot desde un archivo .json'), { target: { files: [new File(['no es json'], 'robot.json')] } });
    expect(await screen.findByText('El archivo no es un JSON válido.', {}, slow)).toBeTruthy();
    expect(calls.some((call) => call.key === 'POST /api/macro/import')).toBe(false);
  });
});

describe('SmartBuilderPage editor', () => {
  it('edits a step\'s locator and value and saves a new version with its note (the PUT body)', async () => {
    const calls = stubApi({ 'GET /api/macro': answer({ items: [summary] }), [`GET /api/macro/${ID}`]: answer(macro()), [`PUT /api/macro/${ID}`]: answer(macro({}, 3)) });
    renderPage(`/smartbuilder?robot=${ID}`);
    expect(await screen.findByRole('heading', { level: 2, name: 'Robot: Consulta de afiliación' }, slow)).toBeTruthy();
    expect(within(stepItem(2)).getByText('Escribir: campo «Usuario» ← «ana»')).toBeTruthy();
    expect(within(stepItem(3)).getByText(/contraseña guardada en el equipo/)).toBeTruthy();
    expect(screen.getByText('Versión 2 · 01/12/2026 11:00 · Ana')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Editar el paso 4' }));
    const editor = screen.getByRole('group', { name: 'Editar el paso 4' });
    fireEvent.change(within(editor).getByLabelText('Nombre accesible'), { target: { value: 'Acceder' } });
    fireEvent.click(within(editor).getByLabelText('Texto exacto (mayúsculas incluidas)'));
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar el paso 4' }));

    fireEvent.click(screen.getByRole('button', { name: 'Editar el paso 2' }));
    const fill = screen.getByRole('group', { name: 'Editar el paso 2' });
    fireEvent.change(within(fill).getByLabelText('De dónde sale'), { target: { value: 'column' } });
    fireEvent.change(within(fill).getByLabelText('Columna (cabecera de la hoja)'), { target: { value: 'Usuario' } });
    // A column outside a loop is a problem: the step goes inside 'Por cada fila de la hoja' first.
    fireEvent.click(within(stepItem(2)).getByRole('checkbox', { name: 'Seleccionar el paso 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Repetir por cada fila de una hoja' }));
    expect(screen.getByText('Por cada fila de Hoja de cálculo')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Nota de la versión (opcional)'), { target: { value: 'Entrar con otro botón' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((call) => call.key === `PUT /api/macro/${ID}`)).toBe(true), slow);
    const body = calls.find((call) => call.key === `PUT /api/macro/${ID}`)!.body as { definition: MacroDefinition; note: string };
    expect(body.note).toBe('Entrar con otro botón');
    expect(body.definition.inputs).toEqual([{ key: 'hoja_de_calculo', label: 'Hoja de cálculo', kind: 'workbook', required: true }]);
    const [goto, loop, password, click] = body.definition.steps;
    expect(goto).toEqual(definition.steps[0]);
    expect(loop).toMatchObject({ type: 'forEachRow', input: 'hoja_de_calculo', steps: [{ id: 'a2', type: 'fill', target: 'internal:label="Usuario"i', value: { kind: 'column', column: 'Usuario' } }] });
    expect(password).toEqual(definition.steps[2]);
    expect(click).toEqual({ id: 'a4', type: 'click', target: 'internal:role=button[name="Acceder"s]' });
    expect(await screen.findByText('Guardado como versión 3', {}, slow)).toBeTruthy();
  });

  it('turns a typed value into a new launch input the step then uses', async () => {
    const calls = stubApi({ [`GET /api/macro/${ID}`]: answer(macro()), [`PUT /api/macro/${ID}`]: answer(macro({}, 3)) });
    renderPage(`/smartbuilder?robot=${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Editar el paso 2' }, slow));
    const editor = screen.getByRole('group', { name: 'Editar el paso 2' });
    fireEvent.click(within(editor).getByRole('button', { name: 'Convertir en dato' }));
    const convert = within(editor).getByRole('group', { name: 'Convertir en dato' });
    fireEvent.click(within(convert).getByRole('button', { name: 'Crear el dato' }));
    expect(within(convert).getByRole('alert').textContent).toBe('Escribe cómo se llama el dato');
    fireEvent.change(within(convert).getByLabelText('Nombre del dato'), { target: { value: 'Usuario del portal' } });
    fireEvent.click(within(convert).getByRole('button', { name: 'Crear el dato' }));

    expect(within(stepItem(2)).getByText('Escribir: campo «Usuario» ← dato «Usuario del portal»')).toBeTruthy();
    expect((screen.getByRole('listitem', { name: 'Dato 1' }).querySelector('input') as HTMLInputElement).value).toBe('Usuario del portal');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((call) => call.key === `PUT /api/macro/${ID}`)).toBe(true), slow);
    const body = calls.find((call) => call.key === `PUT /api/macro/${ID}`)!.body as { definition: MacroDefinition };
    expect(body.definition.inputs).toEqual([{ key: 'usuario_del_portal', label: 'Usuario del portal', kind: 'text', required: true, help: 'Por ejemplo: ana' }]);
    expect(body.definition.steps[1]).toMatchObject({ id: 'a2', value: { kind: 'input', key: 'usuario_del_portal' } });
  });

  it('shares the robot with a colleague (owner only): the grants go in one PUT of share kind macro', async () => {
    const shares = { kind: 'macro', id: ID, grants: [], colleagues: [{ userId: 'u-luis', name: 'Luis', email: 'luis@asesoria.es' }] };
    const calls = stubApi({
      [`GET /api/macro/${ID}`]: answer(macro()),
      [`GET /api/share/object/macro/${ID}`]: answer(shares),
      [`PUT /api/share/object/macro/${ID}`]: answer({ ...shares, grants: [{ userId: 'u-luis', name: 'Luis', email: 'luis@asesoria.es', access: 'edit' }] }),
    });
    renderPage(`/smartbuilder?robot=${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Compartir' }, slow));
    const dialog = await screen.findByRole('dialog', { name: `Compartir «${definition.name}»` }, slow);
    expect(await within(dialog).findByText('Aún no se comparte con nadie.', {}, slow)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Compartir con'), { target: { value: 'u-luis' } });
    fireEvent.change(within(dialog).getByLabelText('Permiso'), { target: { value: 'edit' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Añadir' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((call) => call.key === `PUT /api/share/object/macro/${ID}`)).toBe(true), slow);
    expect(calls.find((call) => call.key === `PUT /api/share/object/macro/${ID}`)!.body).toEqual({ grants: [{ userId: 'u-luis', access: 'edit' }] });
  });

  it('offers no sharing on a robot shared with the user', async () => {
    stubApi({ [`GET /api/macro/${shared.id}`]: answer({ ...macro(), ...shared }) });
    renderPage(`/smartbuilder?robot=${shared.id}`);
    expect(await screen.findByRole('button', { name: 'Duplicar' }, slow)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Compartir' })).toBeNull();
  });

  it('reorders steps from the keyboard, keeping the focus on the moved step', async () => {
    stubApi({ [`GET /api/macro/${ID}`]: answer(macro()) });
    renderPage(`/smartbuilder?robot=${ID}`);
    const down = await screen.findByRole('button', { name: 'Bajar el paso 2' }, slow);
    expect((screen.getByRole('button', { name: 'Subir el paso 1' }) as HTMLButtonElement).disabled).toBe(true);
    down.focus();
    fireEvent.keyDown(down, { key: 'Enter' });
    fireEvent.click(down);
    await waitFor(() => expect(within(stepItem(3)).getByText('Escribir: campo «Usuario» ← «ana»')).toBeTruthy());
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Bajar el paso 3');
    expect(screen.getByRole('status', { hidden: true }).textContent).toBe('Paso movido a la posición 3');
    const downAgain = screen.getByRole('button', { name: 'Bajar el paso 3' });
    fireEvent.click(downAgain);
    // Now last: 'Bajar' is disabled and the focus moves to its twin 'Subir'.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Subir el paso 4'));
    expect(within(stepItem(4)).getByText('Escribir: campo «Usuario» ← «ana»')).toBeTruthy();
  });

  it('lists validation problems linked to their step and does not save', async () => {
    const calls = stubApi({ [`GET /api/macro/${ID}`]: answer(macro()) });
    renderPage(`/smartbuilder?robot=${ID}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Editar el paso 4' }, slow));
    const editor = screen.getByRole('group', { name: 'Editar el paso 4' });
    fireEvent.change(within(editor).getByLabelText('Cómo encontrarlo'), { target: { value: 'selector' } });
    fireEvent.change(within(editor).getByLabelText('Selector'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Dirección de inicio'), { target: { value: 'portal.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));

    const alert = await screen.findByRole('alert', {}, slow);
    expect(within(alert).getByText('Revisa el robot antes de guardarlo')).toBeTruthy();
    expect(within(alert).getByText(/^Dirección de inicio: La dirección debe empezar por https:\/\/ o http:\/\//)).toBeTruthy();
    expect(within(alert).getByText(/^Paso 4: Indica el elemento de la página/)).toBeTruthy();
    expect(within(stepItem(4)).getByText('Indica el elemento de la página')).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Ir al paso 4' }));
    expect(calls.some((call) => call.key.startsWith('PUT'))).toBe(false);
  });

  it('asks before leaving with unsaved changes, and creates a new robot with POST', async () => {
    const calls = stubApi({ 'GET /api/macro': answer({ items: [summary] }), 'POST /api/macro': answer(macro(), 201), [`GET /api/macro/${ID}`]: answer(macro()) });
    renderPage('/smartbuilder?robot=nuevo');
    expect(await screen.findByRole('heading', { level: 2, name: 'Nuevo robot' }, slow)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Nombre del robot'), { target: { value: 'Mi robot' } });
    fireEvent.click(screen.getByRole('button', { name: 'Volver a la lista de robots' }));
    expect(await screen.findByRole('dialog', { name: 'Cambios sin guardar' }, slow)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));

    fireEvent.change(screen.getByLabelText('Dirección de inicio'), { target: { value: 'https://portal.example/login' } });
    fireEvent.click(screen.getByRole('button', { name: 'Añadir paso al final' }));
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    // The new click step has no element yet: it is named and the robot is not created.
    expect(await screen.findByText(/^Paso 1: Indica el elemento de la página/, {}, slow)).toBeTruthy();
    const editor = screen.getByRole('group', { name: 'Editar el paso 1' });
    fireEvent.change(within(editor).getByLabelText('Nombre accesible'), { target: { value: 'Entrar' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.some((call) => call.key === 'POST /api/macro')).toBe(true), slow);
    const body = calls.find((call) => call.key === 'POST /api/macro')!.body as { source: string; definition: MacroDefinition };
    expect(body.source).toBe('blank');
    expect(body.definition.name).toBe('Mi robot');
    expect(body.definition.steps).toEqual([{ id: expect.any(String), type: 'click', target: 'internal:role=button[name="Entrar"i]' }]);
    expect(await screen.findByRole('heading', { level: 2, name: 'Robot: Consulta de afiliación' }, slow)).toBeTruthy();
  });
});
