import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, newUser, signIn, signUp, test } from './fixtures.ts';

const workbook = new URL('../resources/flows/validar-identificadores/fixtures/trabajadores.xlsx', import.meta.url);
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * One real run of 'Validar identificadores' through the public API, as the launcher does it: upload
 * the workbook, launch, wait for the output. The request context shares the page's session cookies.
 */
async function launchValidation(api: APIRequestContext): Promise<void> {
  const upload = await api.post('/api/storage/uploads', {
    multipart: { file: { name: 'trabajadores.xlsx', mimeType: XLSX_MIME, buffer: await readFile(workbook) } },
  });
  expect(upload.status()).toBe(201);
  const [file] = ((await upload.json()) as { items: { id: string; name: string }[] }).items;
  const launch = await api.post('/api/browserflow/execution/validar-identificadores', {
    data: { inputs: { workbook: [{ uploadId: file?.id, name: file?.name }], columns: {} }, json: true, idempotencyKey: randomUUID() },
  });
  expect(launch.status()).toBe(202);
  const { executionToken } = (await launch.json()) as { executionToken: string };
  await expect
    .poll(async () => {
      const state = (await (await api.get(`/api/browserflow/execution/state/${executionToken}?wait=5`)).json()) as { output?: { status: number } };
      return state.output?.status;
    }, { timeout: 30_000 })
    .toBe(200);
}

/** axe's serious and critical findings on the screen as it stands (e2e/screens.spec.ts checks these screens empty). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const bodyRows = (table: Locator) => table.locator('tbody > tr.ui-table__row');

test('a firm sees its runs in the history: cost, filters, pages of 12, a run\'s log and output, the report', async ({ page }) => {
  test.setTimeout(180_000);
  const user = newUser();
  await signUp(page, user);
  // 13 runs: one more than a page. Each checks a 5-row workbook (1 block of 100 rows, 1 slan) whose
  // rows hold 4 planted errors: 1 valid row of 5.
  for (let run = 0; run < 13; run += 1) await launchValidation(page.request);

  await page.goto('/flows');
  const history = page.getByRole('region', { name: 'Historial de robots' });
  const table = history.getByRole('table', { name: 'Historial de robots' });
  await expect(history.getByText('13 ejecuciones')).toBeVisible();
  await expect(history.getByText('Página 1 de 2')).toBeVisible();
  await expect(bodyRows(table)).toHaveCount(12);
  const first = bodyRows(table).first();
  await expect(first).toContainText('Validar identificadores');
  await expect(first).toContainText('Manual');
  await expect(first).toContainText('Finalizado');
  await expect(first).toContainText('1 slan');
  await expect(first).toContainText('1 de 5');
  // The trial's 500 slans less what the 13 runs cost.
  await expect(page.getByRole('link', { name: /487 slans/ })).toBeVisible();

  await history.getByRole('button', { name: 'Siguiente' }).click();
  await expect(history.getByText('Página 2 de 2')).toBeVisible();
  await expect(bodyRows(table)).toHaveCount(1);

  await history.getByRole('radio', { name: 'Programados y remotos' }).click();
  await expect(table.getByRole('cell', { name: 'No se han encontrado registros' })).toBeVisible();
  await history.getByRole('radio', { name: 'Manuales' }).click();
  await expect(history.getByText('13 ejecuciones')).toBeVisible();
  await expect(history.getByText('Página 1 de 2')).toBeVisible();

  await first.getByRole('button', { name: 'Mostrar detalle' }).click();
  const log = history.getByRole('list', { name: 'Registro' });
  await expect(log.getByRole('listitem').first()).toBeVisible();
  const output = history.getByRole('link', { name: /^Descargar .*\.xlsx$/ });
  const href = await output.getAttribute('href');
  expect(href).toMatch(/^\/api\/flowlog\/[0-9a-f-]{36}\/outputs\/.+\.xlsx$/);
  expect(await seriousViolations(page)).toEqual([]);
  const file = await page.request.get(href ?? '');
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 2).toString()).toBe('PK');

  const download = page.waitForEvent('download');
  await history.getByRole('button', { name: 'Descargar informe' }).click();
  const report = await download;
  expect(report.suggestedFilename()).toMatch(/^Historial de robots \d{2}-\d{2}-\d{4}\.xlsx$/);
  expect((await readFile((await report.path()) ?? '')).subarray(0, 2).toString()).toBe('PK');

  // On the narrowest phone the table scrolls inside its card, never the page, and an open log stays readable.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await bodyRows(table).first().getByRole('button', { name: 'Mostrar detalle' }).click();
  await expect(log.getByRole('listitem').first()).toBeVisible();
  const sideways = await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth);
  expect(sideways).toBe(0);
  const logBox = await log.boundingBox();
  expect(logBox && logBox.x >= 0 && logBox.x + logBox.width <= 360).toBe(true);
});

test('a robot\'s page: what it costs and asks for, its template, the launcher; an unknown robot is cleared', async ({ page }) => {
  await signUp(page, newUser());
  await page.goto('/flows');
  const catalogue = page.getByRole('navigation', { name: 'Catálogo de robots' });
  await catalogue.getByRole('searchbox', { name: 'Buscar robots' }).fill('identificadores');
  await catalogue.getByRole('link', { name: /Validar identificadores/ }).click();
  await expect(page).toHaveURL(/\/flows\/validar-identificadores$/);
  const robot = page.getByRole('article', { name: 'Validar identificadores' });
  await expect(robot.getByText('1 slan por bloque de 100 filas')).toBeVisible();
  await expect(robot.getByText('En el servidor')).toBeVisible();
  await expect(catalogue.getByText('BETA').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Qué te pedirá' }).getByText('Obligatorio').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const template = page.waitForEvent('download');
  await robot.getByRole('link', { name: 'Descargar plantilla' }).click();
  expect((await template).suggestedFilename()).toMatch(/\.xlsx$/);

  await robot.getByRole('button', { name: 'Ver instrucciones' }).click();
  const instructions = page.getByRole('dialog', { name: 'Instrucciones: Validar identificadores' });
  await expect(instructions.getByRole('listitem').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(instructions).toHaveCount(0);

  await robot.getByRole('link', { name: 'Abrir asistente' }).click();
  await expect(page).toHaveURL(/\/launcher\/validar-identificadores$/);

  await page.goto('/flows/robot-que-no-existe');
  await expect(page).toHaveURL(/\/flows$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Historial de robots' })).toBeVisible();
});

test('the Roboteka lists the built-in robots, searches them and opens one in the launcher', async ({ page }) => {
  await signUp(page, newUser());
  await page.goto('/roboteka');
  const list = page.getByRole('list', { name: 'Robots del catálogo' });
  for (const name of ['Validar identificadores', 'FIE a incidencias A3']) {
    await expect(list.getByRole('article', { name })).toBeVisible();
  }
  await page.getByRole('searchbox', { name: 'Buscar robots' }).fill('siltra');
  // The robots that name SILTRA: the A3 incidences workbook and the two FIE local processes that fetch from it.
  await expect(list.getByRole('article')).toHaveCount(3);
  for (const name of ['FIE a incidencias A3', 'Obtener FIE de SILTRA', 'FIE de SILTRA a A3']) {
    await expect(list.getByRole('article', { name })).toBeVisible();
  }
  expect(await seriousViolations(page)).toEqual([]);
  await list.getByRole('link', { name: 'Abrir FIE a incidencias A3' }).click();
  await expect(page).toHaveURL(/\/launcher\/fie-incidencias-a3$/);
});

test('the demo account\'s latest Validar run has the workbook its robot checked, to download', async ({ page }) => {
  await page.goto('/auth');
  await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/flows');
  const history = page.getByRole('region', { name: 'Historial de robots' });
  await history.getByRole('combobox', { name: 'Robot' }).selectOption({ label: 'Validar identificadores' });
  const table = history.getByRole('table', { name: 'Historial de robots' });
  const latest = bodyRows(table).first();
  // Made by the robot in the background after the server's first start: a few seconds at most.
  await expect(latest).toContainText(/[\d.]+ de 1\.9\d\d/, { timeout: 20_000 });
  await latest.getByRole('button', { name: 'Mostrar detalle' }).click();
  await expect(history.getByRole('list', { name: 'Registro' }).getByText(/^Hoja «Plantilla»: 19\d\d filas con datos\.$/)).toBeVisible();
  const output = history.getByRole('link', { name: /^Descargar trabajadores_\d{8} validado\.xlsx$/ });
  const file = await page.request.get((await output.getAttribute('href')) ?? '');
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 2).toString()).toBe('PK');
});
