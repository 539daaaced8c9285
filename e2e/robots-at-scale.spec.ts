import type { Locator } from '@playwright/test';
import { sampleWorkbook } from '../resources/flows/validar-identificadores/sample.ts';
import { screenshotsInto } from './embedded-context.ts';
import { setPlan } from './database.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';

/*
 * Issue 19: a long run shows how far it has got while it runs, not only at the end: in the launcher, and
 * in the floating notification once the advisor has gone to another screen. A generated workers'
 * workbook of 100,000 rows (6.4 MB, streamed by the robot on the server) takes a few seconds, long
 * enough to be seen half-way (and no longer: the suite's other lanes share the machine's two cores).
 */

const ROWS = 100_000;

/** '45.000 de 100.000 completadas' -> [45000, 100000]; null for any other text. */
function figuresOf(text: string | null): [number, number] | null {
  const match = /^([\d.]+) de ([\d.]+) completadas$/.exec(text?.trim() ?? '');
  if (!match) return null;
  return [Number(match[1]?.replaceAll('.', '')), Number(match[2]?.replaceAll('.', ''))];
}

/** Waits until `figures` reads part-way: some rows done, not all of them. */
async function expectPartWay(figures: Locator): Promise<[number, number]> {
  let seen: [number, number] | null = null;
  await expect
    .poll(async () => {
      seen = figuresOf(await figures.textContent());
      return seen !== null && seen[0] > 0 && seen[0] < seen[1];
    }, { timeout: 60_000, intervals: [100] })
    .toBe(true);
  return seen as unknown as [number, number];
}

test('a 100,000-row Validar identificadores shows its progress in the launcher, then in the notification on another screen', async ({ page }) => {
  test.setTimeout(180_000);
  const user = newUser();
  await signUp(page, user);
  setPlan(user.email, 'pro'); // about 1,000 slans: past the trial's 500

  await page.goto('/launcher/validar-identificadores');
  await page.getByTestId('file-input').setInputFiles({
    name: 'plantilla-grande.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(sampleWorkbook(ROWS)),
  });
  await expect(page.getByText('Archivo subido')).toBeVisible({ timeout: 30_000 });
  // The estimate comes from the rows counted at upload: 99,900 with data (a blank row now and then), blocks of 100.
  await expect(page.getByText('Coste estimado: 999 slans')).toBeVisible();
  await expect(page.getByText('Calculado sobre 99.900 filas.')).toBeVisible();

  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  const launcherFigures = page.getByRole('main').getByText(/ de [\d.]+ completadas$/);
  const [done, total] = await expectPartWay(launcherFigures);
  // The total is the robot's estimate from the sheet's size: close to the rows, not a placeholder.
  expect(total).toBeGreaterThan(ROWS * 0.8);
  expect(total).toBeLessThan(ROWS * 1.25);
  await expect(page.getByRole('progressbar', { name: 'Progreso del robot' })).toHaveAttribute('value', /\d+/);
  await screenshotsInto(process.env.SCALE_SHOTS, page, 'launcher-progress');

  // Off to the history while it runs: the notification carries on with the run's figures.
  await page.getByRole('link', { name: 'Robots' }).first().click();
  const notification = page.getByRole('complementary', { name: 'Robot en curso' });
  await expect(notification).toContainText('Validar identificadores: En curso');
  const [later] = await expectPartWay(notification.getByText(/completadas$/));
  expect(later).toBeGreaterThanOrEqual(done);
  await expect(notification.getByRole('progressbar', { name: 'Progreso de Validar identificadores' })).toBeVisible();
  await screenshotsInto(process.env.SCALE_SHOTS, page, 'notification-progress');

  // It ends on the true count, and the same notification says how it went.
  await expect(page.getByRole('complementary', { name: 'Último robot ejecutado' })).toContainText('Validar identificadores: Finalizado', { timeout: 120_000 });
});
