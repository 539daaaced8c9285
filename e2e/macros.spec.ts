import { readFile } from 'node:fs/promises';
import { chromium, type Page } from '@playwright/test';
import * as XLSX from 'xlsx';
import { E2E_CERTIFICATES } from './certificates.ts';
import { runsOf, withDatabase } from './database.ts';
import { embeddedContext, screenshotsInto } from './embedded-context.ts';
import { expect, newUser, scheduleTomorrowNight, signIn, signUp, test } from './fixtures.ts';

/**
 * Issue 41 end to end: a robot the firm builds itself. In the desktop app (the suite's agent) the advisor
 * records a task on the test site (standins/macro-site): a login with a client certificate of the agent's
 * NSS store, a paginated table, a file upload and an alta. The recording browser is the agent's own
 * Chromium; the test acts in it over its debugging port, clicking and typing as the user would. The
 * recording is replayed on this PC, then edited in SmartBuilder on the web to loop over a workbook, tried
 * on the office PC with three rows, and scheduled there with 1,000. MACROS_SHOTS=<dir> keeps screenshots.
 */
test.skip(!process.env.E2E_NSS_DB, 'NSS tools (certutil, pk12util) are not installed: the agent has no test store.');

const ELENA = E2E_CERTIFICATES[0]!;
const SITE = process.env.E2E_MACRO_SITE_URL ?? '';
const SHOTS = process.env.MACROS_SHOTS;
/** A small real PDF: uploads are judged by their bytes. */
const PDF = { name: 'contrato.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') };

function workbookOf(rows: number): { name: string; mimeType: string; buffer: Buffer } {
  const sheet = XLSX.utils.aoa_to_sheet([['NIF', 'Nombre'], ...Array.from({ length: rows }, (_, index) => [nif(40_000_000 + index), `Persona ${index + 1}`])]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Trabajadores');
  return { name: `trabajadores-${rows}.xlsx`, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer };
}

function nif(number: number): string {
  return `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
}

/** The certificate picker of the launcher and of the recorder (its title differs). */
async function pickElena(page: Page, dialogName: string): Promise<void> {
  await page.getByRole('button', { name: 'Elegir certificado' }).click();
  const picker = page.getByRole('dialog', { name: dialogName });
  await picker.getByRole('radio', { name: ELENA.commonName }).click();
  await picker.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByText(ELENA.commonName).first()).toBeVisible();
}

/** What the user does in the robot's browser while it records. */
async function workOnTheSite(port: number): Promise<void> {
  const robotBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const site = robotBrowser.contexts().flatMap((context) => context.pages()).find((candidate) => candidate.url().startsWith(SITE));
    if (!site) throw new Error(`The recording browser has no page of ${SITE}`);
    await site.getByRole('link', { name: 'Acceder con certificado' }).click();
    await expect(site.getByTestId('bienvenida')).toContainText('Bienvenido/a');
    // Each page loaded before the next click, as a person would see it: a full run once recorded one
    // click fewer, a click made as the next page had only just been committed.
    await site.getByRole('link', { name: 'Listado de empresas' }).click();
    await expect(site).toHaveURL(/\/listado$/);
    await site.waitForLoadState('load');
    await site.getByRole('link', { name: 'Siguiente' }).click();
    await expect(site).toHaveURL(/pagina=2/);
    await site.waitForLoadState('load');
    await site.getByRole('link', { name: 'Siguiente' }).click();
    await expect(site).toHaveURL(/pagina=3/);
    await site.waitForLoadState('load');
    await site.getByRole('link', { name: 'Inicio' }).click();
    await site.waitForLoadState('load');
    await site.getByRole('link', { name: 'Subir un fichero' }).click();
    await site.getByLabel('Fichero').setInputFiles(PDF);
    await site.getByRole('button', { name: 'Enviar' }).click();
    await expect(site.getByTestId('nombre-fichero')).toHaveText(PDF.name);
    await site.getByRole('link', { name: 'Inicio' }).click();
    await site.getByRole('link', { name: 'Alta de trabajador' }).click();
    await site.getByRole('textbox', { name: 'NIF' }).click();
    await site.keyboard.type('12345678Z');
    await site.getByRole('textbox', { name: 'Nombre' }).click();
    await site.keyboard.type('Ana Pérez');
    await site.getByRole('button', { name: 'Registrar' }).click();
    await expect(site.getByTestId('alta-ok')).toBeVisible();
  } finally {
    // Only the connection goes: the recording browser belongs to the agent's recorder.
    await robotBrowser.close().catch(() => undefined);
  }
}

test('a firm records a robot (certificate login, paginated table, upload, alta), replays it on this PC, loops it over a workbook in SmartBuilder and schedules it', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  const advisor = newUser();
  const desktop = await embeddedContext(browser, baseURL ?? '');
  const page = await desktop.newPage();
  await signUp(page, advisor);

  // 1. The recorder, in the desktop app: the start page, ELENA's certificate, 'Grabar'.
  await page.goto('/recorder');
  await page.getByLabel('Dirección donde empieza la tarea').fill(`${SITE}/`);
  await pickElena(page, 'Certificado para la página');
  await page.getByRole('button', { name: 'Grabar' }).click();
  await expect(page.getByRole('heading', { name: 'Grabando' })).toBeVisible({ timeout: 30_000 });
  await workOnTheSite(Number(process.env.E2E_RECORDER_CDP_PORT));

  // The steps appear as they are recorded (polled every second).
  const recorded = page.getByRole('list', { name: 'Pasos grabados' });
  await expect(recorded).toContainText('Hacer clic: enlace «Siguiente»');
  await expect(recorded).toContainText('Subir un fichero');
  await expect(recorded).toContainText('Hacer clic: botón «Registrar»');
  await screenshotsInto(SHOTS, page, 'recorder');
  await page.getByRole('button', { name: 'Detener y guardar' }).click();
  const saved = page.getByRole('heading', { name: /^Robot «Grabación .*» guardado$/ });
  await expect(saved).toBeVisible();
  const robotName = ((await saved.textContent()) ?? '').replace(/^Robot «(.*)» guardado$/, '$1');
  await expect(page.getByText('Para editar sus pasos, abre Smart Builder desde el navegador web')).toBeVisible();

  // What the server keeps: the recorded steps with Playwright's selectors, the password-free definition.
  const { items } = (await (await page.request.get('/api/macro')).json()) as { items: { id: string; flowId: string; name: string }[] };
  const stored = items.find((item) => item.name === robotName)!;
  const macro = (await (await page.request.get(`/api/macro/${stored.id}`)).json()) as { definition: { steps: { type: string; target?: string }[]; inputs: { key: string; kind: string }[] } };
  expect(macro.definition.inputs.map((input) => input.kind)).toEqual(['certificate', 'file']);
  expect(macro.definition.steps.map((step) => step.type)).toEqual(['click', 'click', 'click', 'click', 'click', 'click', 'upload', 'click', 'click', 'click', 'fill', 'fill', 'click']);
  expect(macro.definition.steps[2]?.target).toBe('internal:role=link[name="Siguiente"i]');
  if (SHOTS) console.log(`Recorded macro:\n${JSON.stringify(macro.definition, null, 2)}`);

  // 2. Replayed on this PC (the agent): the launcher asks for the certificate and the file to upload.
  await page.getByRole('link', { name: 'Abrir en el lanzador' }).click();
  await expect(page.getByRole('heading', { level: 1, name: robotName })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Este dispositivo/ })).toBeChecked();
  await pickElena(page, 'Elige certificado');
  await page.getByRole('group', { name: /^Fichero para subir/ }).getByTestId('file-input').setInputFiles(PDF);
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Robot terminado' })).toBeVisible({ timeout: 90_000 });
  await page.getByRole('button', { name: 'Ver consola' }).click();
  await expect(page.getByRole('log', { name: 'Consola' })).toContainText('Paso 13: Hacer clic en botón «Registrar»');
  expect(runsOf(advisor.email, stored.flowId)[0]).toMatchObject({ state: 'finished', result: 'Success', remote: 0 });

  // The office PC's certificates are synced, so the web can run the robot there.
  await page.goto('/workspace');
  await page.getByLabel('Nombre del dispositivo').fill('PC Oficina macros');
  await page.getByRole('checkbox', { name: 'Seleccionar todos' }).check();
  await page.getByRole('button', { name: 'Sincronizar', exact: true }).click();
  await expect(page.getByText('Se han sincronizado 2 certificados')).toBeVisible();

  // 3. SmartBuilder on the web: the alta (from 'Inicio' to 'Registrar') repeated for each row of a workbook.
  const web = await browser.newContext({ baseURL });
  const editor = await web.newPage();
  await editor.goto('/auth');
  await signIn(editor, advisor);
  await editor.waitForURL((url) => !url.pathname.startsWith('/auth'));
  await editor.goto('/smartbuilder');
  await editor.getByRole('heading', { level: 2, name: robotName }).getByRole('button').click();
  await expect(editor.getByRole('heading', { level: 2, name: `Robot: ${robotName}` })).toBeVisible();
  const steps = editor.getByRole('list', { name: 'Pasos del robot' });
  const item = (text: string) => steps.getByRole('listitem').filter({ hasText: text });
  for (const step of [item('enlace «Inicio»').last(), item('enlace «Alta de trabajador»'), item('campo de texto «NIF»'), item('campo de texto «Nombre»'), item('botón «Registrar»')]) {
    await step.getByRole('checkbox', { name: /^Seleccionar el paso/ }).check();
  }
  await editor.getByRole('button', { name: 'Repetir por cada fila de una hoja' }).click();
  await expect(editor.getByText('5 pasos dentro de «Por cada fila de la hoja»')).toBeVisible();
  for (const [field, column] of [['NIF', 'NIF'], ['Nombre', 'Nombre']] as const) {
    const fill = item(`campo de texto «${field}»`).last();
    await fill.getByRole('button', { name: /^Editar el paso/ }).click();
    await fill.getByLabel('De dónde sale').selectOption({ label: 'Una columna de la hoja' });
    await fill.getByLabel('Columna (cabecera de la hoja)').fill(column);
    await fill.getByRole('button', { name: /^Cerrar el paso/ }).click();
  }
  await expect(item('campo de texto «NIF»').last()).toContainText('columna «NIF»');
  await screenshotsInto(SHOTS, editor, 'smartbuilder');
  await editor.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(editor.getByText('Guardado como versión 2')).toBeVisible();

  // 4. Tried on the office PC with three rows: each row registered, RESULTADO 'OK' in the workbook.
  await editor.goto(`/launcher/${stored.flowId}`);
  await expect(editor.getByRole('heading', { level: 1, name: robotName })).toBeVisible();
  await editor.getByRole('radio', { name: /PC Oficina macros/ }).check();
  await pickElena(editor, 'Elige certificado');
  await editor.getByRole('group', { name: /^Fichero para subir/ }).getByTestId('file-input').setInputFiles(PDF);
  await editor.getByRole('group', { name: /^Hoja de cálculo/ }).getByTestId('file-input').setInputFiles(workbookOf(3));
  // Both files on the server before the launch (the launcher holds a launch while an upload runs).
  await expect(editor.getByText('Archivo subido')).toHaveCount(2);
  await editor.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(editor.getByRole('heading', { level: 2, name: 'Robot terminado' })).toBeVisible({ timeout: 90_000 });
  const download = editor.waitForEvent('download');
  await editor.getByRole('link', { name: 'Descargar resultado.xlsx' }).click();
  const book = XLSX.read(await readFile(await (await download).path()));
  const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets['Resultado']!, { header: 1, raw: false });
  expect(rows).toEqual([['NIF', 'Nombre', 'RESULTADO'], ...[0, 1, 2].map((index) => [nif(40_000_000 + index), `Persona ${index + 1}`, 'OK'])]);
  const [tried] = runsOf(advisor.email, stored.flowId);
  expect(tried).toMatchObject({ state: 'finished', result: 'Success', remote: 1 });

  // 5. Scheduled there with 1,000 rows for tomorrow night; the schedule keeps the macro's flow.
  await editor.goto(`/launcher/${stored.flowId}`);
  await editor.getByRole('radio', { name: /PC Oficina macros/ }).check();
  await pickElena(editor, 'Elige certificado');
  await editor.getByRole('group', { name: /^Fichero para subir/ }).getByTestId('file-input').setInputFiles(PDF);
  await editor.getByRole('group', { name: /^Hoja de cálculo/ }).getByTestId('file-input').setInputFiles(workbookOf(1_000));
  await expect(editor.getByText('Archivo subido')).toHaveCount(2);
  await scheduleTomorrowNight(editor);
  const schedules = withDatabase((db) => db.prepare('select flow_id from flow_schedules s join users u on u.id = s.user_id where u.email = ?').all(advisor.email) as { flow_id: string }[]);
  expect(schedules).toEqual([{ flow_id: stored.flowId }]);
  await web.close();
  await desktop.close();
});
