import type { Locator, Page } from '@playwright/test';
import { expect, newUser, signUp, test } from './fixtures.ts';

/**
 * Issue 21, the screens around the robots as a new user meets them: honest results, the scheduler's
 * controls, the floating 'Robots programados' button never over something to click, a quiet first load.
 */

const workbook = 'resources/flows/validar-identificadores/fixtures/trabajadores.xlsx';

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

/** Whether two elements' boxes overlap, as the page is shown (by more than a rounding's pixel). */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [one, two] = [await box(a), await box(b)];
  return one.x + 1 < two.x + two.width && two.x + 1 < one.x + one.width && one.y + 1 < two.y + two.height && two.y + 1 < one.y + one.height;
}

const dock = (page: Page) => page.getByRole('button', { name: /^Robots programados/ });

/**
 * The target, brought into view as a user (or Tab) would, is where a click lands: neither the button
 * nor its strip is over it.
 */
async function expectClear(page: Page, target: Locator) {
  // As the browser brings a control into view (scroll-padding counts the strip), not Playwright's own scroll.
  await target.evaluate((element) => element.scrollIntoView({ block: 'nearest' }));
  expect(await overlap(target, dock(page))).toBe(false);
  expect(await overlap(target, dock(page).locator('xpath=..'))).toBe(false);
  const { x, y, width, height } = await box(target);
  const hit = await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('a,button')?.textContent ?? '', [x + width / 2, y + height / 2]);
  expect(hit).toBe(await target.textContent());
}

test('launcher and Home: the floating button covers neither Lanzar tarea (1366×800) nor the Robots tile (390×844); Repetir toggles by its label; a Validar run counts rows valid and with errors', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 800 });
  await signUp(page, newUser());
  await page.goto('/launcher/validar-identificadores');
  await expect(page.getByRole('heading', { level: 1, name: 'Validar identificadores' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(workbook);
  await expect(page.getByText('Coste estimado: 1 slan')).toBeVisible();
  const launch = page.getByRole('button', { name: 'Lanzar tarea' });
  await expect(dock(page)).toBeVisible();
  await expectClear(page, launch);
  await page.screenshot({ path: '/tmp/helperC/launcher.png' });
  // Tab reaches it clear of the strip too.
  await page.evaluate(() => window.scrollTo(0, 0));
  await launch.focus();
  await expectClear(page, launch);

  // The scheduler: a click on the words 'Repetir' toggles its switch; the years are this one and the next five.
  await page.getByRole('button', { name: 'Programar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Elige fecha y hora' });
  const repeat = dialog.getByRole('switch', { name: 'Repetir' });
  await expect(repeat).toHaveAttribute('aria-checked', 'false');
  await dialog.getByText('Repetir', { exact: true }).click();
  await expect(repeat).toHaveAttribute('aria-checked', 'true');
  await expect(dialog.getByLabel(/^Cada/)).toBeVisible();
  const thisYear = Number(new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', year: 'numeric' }).format(new Date()));
  const years = await dialog.getByRole('combobox', { name: 'Año' }).locator('option').allTextContents();
  expect(years).toEqual(Array.from({ length: 6 }, (_, index) => String(thisYear + index)));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Honest results: the fixture's 5 rows, 4 of them with a wrong value, say so (not '5 de 5').
  await launch.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });
  const figure = (label: string) => page.locator('.launcher-output__summary .ui-definitions__item').filter({ has: page.getByRole('term').getByText(label, { exact: true }) }).getByRole('definition');
  await expect(figure('Filas revisadas')).toHaveText('5');
  await expect(figure('Filas válidas')).toHaveText('1');
  await expect(figure('Filas con errores')).toHaveText('4');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const tile = page.getByRole('link', { name: /Robots/ }).first();
  await expect(tile).toBeVisible();
  await expect(dock(page)).toBeVisible();
  await expectClear(page, tile);
  await page.screenshot({ path: '/tmp/helperC/home.png', fullPage: false });
});

test('a signed-out first load of /auth logs nothing in the console: the restore answers 200 with no user', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text());
  });
  page.on('pageerror', (error) => logged.push(error.message));
  const restore = page.waitForResponse((response) => response.url().endsWith('/api/auth/session'));
  await page.goto('/auth');
  expect((await restore).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Inicia sesión' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(logged).toEqual([]);
});
