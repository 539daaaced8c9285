import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { setUsedCredits } from './database.ts';
import { expect, newUser, scheduleTomorrowNight, signUp, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

const workbook = 'resources/flows/validar-identificadores/fixtures/trabajadores.xlsx';

async function openLauncherWithWorkbook(page: Page) {
  await page.goto('/launcher/validar-identificadores');
  await expect(page.getByRole('heading', { level: 1, name: 'Validar identificadores' })).toBeVisible();
  await expect(page.getByText('1 slan por bloque de 100 filas')).toBeVisible();
  await expect(page.getByText('El coste estimado aparecerá al subir el archivo.')).toBeVisible();
  await page.getByTestId('file-input').setInputFiles(workbook);
  await expect(page.getByText('Archivo subido')).toBeVisible();
}

test('launch Validar identificadores with a real workbook: cost first, output to download, the run in the history with its cost', async ({ page }) => {
  await signUp(page, newUser());
  await openLauncherWithWorkbook(page);

  // The columns come from the uploaded workbook, preselected by their headers.
  await expect(page.getByRole('combobox', { name: 'NIF/NIE' })).toHaveValue('DNI/NIE');
  await expect(page.getByRole('combobox', { name: 'NAF (número de afiliación)' })).toHaveValue('Nº Seguridad Social');
  await expect(page.getByText('Coste estimado: 1 slan')).toBeVisible();
  await expect(page.getByText('Saldo disponible: 500 slans')).toBeVisible();

  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('main').getByText('Coste: 1 slan')).toBeVisible();

  const link = page.getByRole('link', { name: /^Descargar .*\.xlsx$/ });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const saved = await download.path();
  // An .xlsx is a zip: it starts with PK.
  expect(readFileSync(saved).subarray(0, 2).toString('latin1')).toBe('PK');

  // The floating notification tells how the run went.
  await expect(page.getByRole('complementary', { name: 'Último robot ejecutado' })).toContainText('Validar identificadores: Finalizado');

  await page.getByRole('button', { name: 'Ver consola' }).click();
  await expect(page.getByRole('log', { name: 'Consola' })).toBeVisible();

  await page.goto('/flows');
  const history = page.getByRole('table', { name: 'Historial de robots' });
  const row = history.getByRole('row').filter({ hasText: 'Validar identificadores' }).first();
  await expect(row).toContainText('Finalizado');
  await expect(row).toContainText('1 slan');
});

test('schedule Validar identificadores from the launcher', async ({ page }) => {
  await signUp(page, newUser());
  await openLauncherWithWorkbook(page);
  await scheduleTomorrowNight(page);

  // The robot's page in Robots lists it.
  await page.goto('/flows/validar-identificadores');
  await expect(page.getByRole('list', { name: 'Programaciones de este robot' })).toContainText('a las 23:59');
});

test('an exhausted balance: the launch is refused with the credits prompt, and Ver planes leads to Pagos', async ({ page }) => {
  const user = newUser();
  await signUp(page, user);
  setUsedCredits(user.email, 500); // all of the trial's 500
  await openLauncherWithWorkbook(page);
  await expect(page.getByText('Saldo disponible: 0 slans')).toBeVisible();
  await expect(page.getByText('El coste estimado supera tu saldo.')).toBeVisible();

  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  const prompt = page.getByRole('dialog', { name: 'No tienes suficientes slans' });
  await expect(prompt).toContainText('Coste estimado de este robot: 1 slan. Tu saldo: 0 slans.');
  // A trial does not bill extra usage: no Continuar.
  await expect(prompt.getByRole('button', { name: 'Continuar' })).toHaveCount(0);
  await prompt.getByRole('button', { name: 'Ver planes' }).click();
  await expect(page).toHaveURL(/\/payments$/);
});

/** How far the document scrolls sideways beyond the window, in px (0 when it fits). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth);

for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }, { width: 360, height: 740 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the launcher fits: inputs with the column choices, the output, the scheduler', async ({ page }) => {
      await signUp(page, newUser());
      await openLauncherWithWorkbook(page);
      await expect(page.getByRole('combobox', { name: 'NIF/NIE' })).toBeVisible();
      if (process.env.LAUNCHER_SHOTS) await page.screenshot({ path: `${process.env.LAUNCHER_SHOTS}/inputs-${viewport.width}.png`, fullPage: true });
      expect(await sidewaysOverflow(page)).toBe(0);

      await page.getByRole('button', { name: 'Programar' }).click();
      await expect(page.getByRole('dialog', { name: 'Elige fecha y hora' })).toBeVisible();
      if (process.env.LAUNCHER_SHOTS) await page.screenshot({ path: `${process.env.LAUNCHER_SHOTS}/scheduler-${viewport.width}.png` });
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Lanzar tarea' }).click();
      await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });
      if (process.env.LAUNCHER_SHOTS) await page.screenshot({ path: `${process.env.LAUNCHER_SHOTS}/output-${viewport.width}.png`, fullPage: true });
      expect(await sidewaysOverflow(page)).toBe(0);
    });
  });
}

/** axe's serious and critical findings on the page as it stands. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('accessibility (axe): the launcher with its inputs, the scheduler and the output have no serious violations', async ({ page }) => {
  // Two axe passes and a real run: over 30 s when the machine is busy.
  test.setTimeout(60_000);
  await signUp(page, newUser());
  await openLauncherWithWorkbook(page);
  await expect(page.getByRole('combobox', { name: 'NIF/NIE' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Programar' }).click();
  await expect(page.getByRole('dialog', { name: 'Elige fecha y hora' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('complementary', { name: 'Último robot ejecutado' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
