import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect as baseExpect, newUser, signUp, test } from './fixtures.ts';
import { fie3File, fie4File, notAFieFile } from './fie-files.ts';

// The e2e server shares a busy machine: each check may wait longer than the default before it fails.
const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * Issue 22, the FIE screen in Chromium against the real server: uploads judged by content with the §8
 * toast lines, a document opened into its entries, a NIF search kept in the address, and a delete
 * after 'Eliminar FIE'.
 */

/** The lines of the toast on screen (the processing toast has one line per kind of outcome). */
async function toastLines(page: Page, timeout?: number): Promise<string[]> {
  const toast = page.locator('.app-toast > span').last();
  await expect(toast).toBeVisible({ timeout });
  return (await toast.innerText()).split('\n').map((line) => line.trim()).filter((line) => line !== '');
}

async function upload(page: Page, files: Parameters<Page['setInputFiles']>[1]) {
  await page.locator('input[type="file"]').setInputFiles(files);
}

/** axe's serious and critical findings on the screen as it stands. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const documentHeader = (page: Page, fileName: string) => page.getByRole('button', { name: new RegExp(`· ${fileName.replace(/\./g, '\\.')} ·`) });

test('FIE: several files at once with the exact toast, expand, filter by NIF, export to A3, delete after confirming', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signUp(page, newUser());
  await page.goto('/fie');
  await expect(page.getByRole('heading', { level: 1, name: 'Procesador FIE' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Todavía no has subido ningún FIE' })).toBeVisible();

  const march = fie4File('siltra-marzo.fie', 4, { year: 2025, month: 3 });
  await upload(page, [march]);
  expect(await toastLines(page)).toEqual(['Se ha procesado un FIE.']);
  await expect(documentHeader(page, 'siltra-marzo.fie')).toBeVisible();
  await page.locator('.app-toast').getByRole('button').click();

  // One new FIE3, one file that is not a FIE, and the March file again under another name.
  await upload(page, [
    fie3File('siltra-abril.txt', 3, 500, { year: 2025, month: 4 }),
    notAFieFile('notas.txt'),
    { ...march, name: 'siltra-marzo-copia.fie' },
  ]);
  expect(await toastLines(page)).toEqual(['Se ha procesado un FIE.', 'Un archivo no se ha podido procesar.', 'Un archivo se ha añadido anteriormente.']);
  await expect(page.getByRole('heading', { name: 'Archivos no procesados' })).toBeVisible();
  await expect(page.locator('.fie-upload__failures li')).toHaveCount(1);
  await expect(page.locator('.fie-upload__failures li')).toContainText('notas.txt');
  await expect(documentHeader(page, 'siltra-abril.txt')).toHaveAttribute('aria-label', /3 partes$/);
  await expect(documentHeader(page, 'siltra-marzo-copia.fie')).toHaveCount(0);
  // The count speaks of partes, then files (issue 43, 7); the file input is not a second 'Elegir archivos' (9).
  await expect(page.locator('.fie-toolbar__count')).toHaveText(/^\d+ partes en 2 FIE$/);
  await expect(page.getByRole('button', { name: 'Elegir archivos' })).toHaveCount(1);
  await expect(page.getByText('«Desde» y «Hasta» filtran por la fecha de baja')).toBeVisible();

  // Open April's document: its three workers, each with a NIF.
  const april = documentHeader(page, 'siltra-abril.txt');
  await april.click();
  await expect(april).toHaveAttribute('aria-expanded', 'true');
  const entries = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Seleccionar el parte de / }) });
  await expect(entries).toHaveCount(3);
  const first = entries.first();
  const nif = (await first.locator('.fie-fact', { hasText: 'NIF' }).locator('dd').innerText()).trim();
  const worker = (await first.locator('.fie-entry__name').innerText()).trim();
  expect(nif).toMatch(/^[0-9A-Z]{9,}$/);
  // The screen with an open document, its entries and the failed-files list: nothing serious for axe.
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('fie-list-1366.png'), fullPage: true });

  // Search by that NIF: kept in the address, one entry left, its document open.
  await page.getByRole('searchbox', { name: 'Buscar por nombre, NIF o empresa' }).fill(nif);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${nif}`));
  await expect(entries).toHaveCount(1);
  await expect(entries.first().locator('.fie-entry__name')).toHaveText(worker);
  await expect(documentHeader(page, 'siltra-marzo.fie')).toHaveCount(0);
  await page.reload();
  await expect(entries).toHaveCount(1);

  // That entry exported: the A3 incidences workbook downloads as incidencias-a3.xlsx.
  await entries.first().getByRole('checkbox').check();
  await expect(page.getByText('1 parte seleccionado')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar a A3' }).click();
  const workbook = await download;
  expect(workbook.suggestedFilename()).toBe('incidencias-a3.xlsx');
  const bytes = await readFile(await workbook.path());
  // An .xlsx is a zip: it starts with PK.
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  await page.getByRole('button', { name: 'Quitar filtros' }).click();
  await expect(documentHeader(page, 'siltra-marzo.fie')).toBeVisible();

  // Delete April's document: asked first, gone once the server has answered.
  await page.getByRole('button', { name: 'Eliminar siltra-abril.txt' }).click();
  // 'Eliminar FIE' names the file it deletes (issue 43, 9).
  const dialog = page.getByRole('dialog', { name: 'Eliminar FIE «siltra-abril.txt»' });
  await expect(dialog).toContainText('El FIE se eliminará y no se podrá recuperar. Los datos ya sincronizados en A3 no se verán afectados.');
  const deleted = page.waitForResponse((response) => response.request().method() === 'DELETE' && response.url().includes('/api/fie/'));
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  expect((await deleted).status()).toBe(204);
  await expect(documentHeader(page, 'siltra-abril.txt')).toHaveCount(0);
  await expect(documentHeader(page, 'siltra-marzo.fie')).toBeVisible();
  const list = await page.request.get('/api/fie');
  const names = ((await list.json()) as { items: { fileName: string | null }[] }).items.map((item) => item.fileName);
  expect(names).toEqual(['siltra-marzo.fie']);

  // At a phone's width nothing spills sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await documentHeader(page, 'siltra-marzo.fie').click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('fie-list-390.png'), fullPage: true });

  // Conciliación con A3: a search over the open bajas, by surname (issue 43, 5); nothing spills at 390 px.
  await page.goto('/fie?vista=conciliacion');
  const search = page.getByRole('searchbox', { name: 'Buscar en la conciliación por nombre, NIF, empresa o CCC' });
  await expect(search).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('fie-conciliacion-390.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.screenshot({ path: test.info().outputPath('fie-conciliacion-1366.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
});

test('FIE: a file of 10,000 entries opens into a list that is sent a page at a time, keeps only the rows in view and scrolls to its last entry', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signUp(page, newUser());
  await page.goto('/fie');
  await expect(page.getByRole('region', { name: 'Todavía no has subido ningún FIE' })).toBeVisible();
  await upload(page, [fie4File('siltra-diez-mil.fie', 10_000, { year: 2025, month: 5 })]);
  // 10,000 entries are decoded and written in ~8 s on a quiet machine (an import takes at most half the
  // server's event loop); with the suite's three lanes on two cores it has taken over a minute. The list,
  // not the upload's speed, is what this test is about.
  expect(await toastLines(page, 150_000)).toEqual(['Se ha procesado un FIE.']);

  // A reload asks for the first page only (issue 43, 6): 500 entries and the counts, not the 10,000.
  const firstPage = page.waitForRequest((request) => request.url().includes('/api/fie?') && request.url().includes('offset=0'));
  await page.reload();
  expect(new URL((await firstPage).url()).searchParams.get('limit')).toBe('500');
  const answer = (await (await page.request.get('/api/fie?limit=500&offset=0')).json()) as { entries: unknown[]; total: number; nextOffset: number | null };
  expect([answer.entries.length, answer.total, answer.nextOffset]).toEqual([500, 10_000, 500]);
  await expect(page.locator('.fie-toolbar__count')).toHaveText('10.000 partes en 1 FIE · 500 cargados');

  const header = documentHeader(page, 'siltra-diez-mil.fie');
  await expect(header).toHaveAttribute('aria-label', /· 10\.000 partes$/);
  await header.click();
  const rows = page.locator('.fie-list__row');
  await expect(rows.first()).toBeVisible();
  // The header, the first page's 500 entries and the row that loads the next: only those in view are in the page.
  expect(await rows.count()).toBeLessThan(60);
  await expect(rows.last()).toHaveAttribute('aria-setsize', '502');

  // Scrolled to the end of what is loaded, the next page comes by itself: its row says so (the page held
  // back here until the screenshots are taken), then the entries follow.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const secondPage = /\/api\/fie\?.*offset=500(&|$)/;
  await page.route(secondPage, async (route) => {
    await held;
    await route.continue();
  });
  const list = page.getByTestId('fie-list-scroll');
  const scrollToEnd = () =>
    list.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
  await scrollToEnd();
  await expect(page.locator('.fie-more')).toBeVisible();
  await expect(page.locator('.fie-more')).toContainText('Faltan 9500 partes de este FIE');
  await page.screenshot({ path: test.info().outputPath('fie-pages-1366.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await scrollToEnd();
  await expect(page.locator('.fie-more')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('fie-pages-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  release();
  await expect(rows.last()).not.toHaveAttribute('aria-setsize', '502');
  await page.unroute(secondPage);

  await expect(async () => {
    await scrollToEnd();
    await expect(page.locator('.fie-list__row[aria-posinset="10001"]')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 120_000 });
  await expect(rows.last()).toHaveAttribute('aria-setsize', '10001');
  await expect(page.locator('.fie-toolbar__count')).toHaveText('10.000 partes en 1 FIE');
  expect(await rows.count()).toBeLessThan(60);

  // Conciliación at this size: many pages, and a field to go straight to one (issue 43, 5).
  await page.goto('/fie?vista=conciliacion');
  const pager = page.getByRole('navigation', { name: 'Paginación' });
  await expect(pager).toBeVisible({ timeout: 30_000 });
  const pages = Number(/de (\d+)/.exec(await pager.locator('.ui-pagination__status').innerText())?.[1]);
  expect(pages).toBeGreaterThan(5);
  await pager.getByRole('spinbutton', { name: 'Ir a la página' }).fill(String(pages));
  await pager.getByRole('spinbutton', { name: 'Ir a la página' }).press('Enter');
  await expect(pager.locator('.ui-pagination__status')).toHaveText(`Página ${pages} de ${pages}`);
  await page.screenshot({ path: test.info().outputPath('fie-conciliacion-paginas-1366.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: test.info().outputPath('fie-conciliacion-paginas-390.png'), fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
});
