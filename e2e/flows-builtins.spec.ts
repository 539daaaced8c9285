import { readFileSync } from 'node:fs';
import * as XLSX from 'xlsx';
import { expect, newUser, signUp, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

/**
 * The two built-in robots flows-launch.spec.ts does not drive: each launched from its wizard with real
 * files, its workbook downloaded and read back, and the run found in the history with its cost.
 */

/** Launches the wizard's run and waits for the output section; returns the downloaded workbook. */
async function launchAndDownload(page: Page, outputTitle: string): Promise<XLSX.WorkBook> {
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: outputTitle })).toBeVisible({ timeout: 30_000 });
  const link = page.getByRole('link', { name: /^Descargar .*\.xlsx$/ });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return XLSX.read(readFileSync(await download.path()));
}

function headerRow(workbook: XLSX.WorkBook, sheet: string): string[] {
  const rows = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[sheet]!, { header: 1 });
  return (rows[0] ?? []).map(String);
}

async function expectInHistory(page: Page, robot: string, cost: RegExp) {
  await page.goto('/flows');
  const row = page.getByRole('table', { name: 'Historial de robots' }).getByRole('row').filter({ hasText: robot }).first();
  await expect(row).toContainText('Finalizado');
  await expect(row).toContainText(cost);
}

test('FIE a incidencias A3: two SILTRA files (text and Excel) give one workbook of A3 incidences', async ({ page }) => {
  await signUp(page, newUser());
  await page.goto('/launcher/fie-incidencias-a3');
  await expect(page.getByRole('heading', { level: 1, name: 'FIE a incidencias A3' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles([
    'resources/flows/fie-incidencias-a3/fixtures/synthetic-fie4.txt',
    'resources/flows/fie-incidencias-a3/fixtures/fie-excel.xlsx',
  ]);
  await expect(page.getByText('Archivo subido').or(page.getByText('Archivos subidos'))).toBeVisible();

  const workbook = await launchAndDownload(page, 'Incidencias para A3');
  expect(workbook.SheetNames).toEqual(['Incidencias', 'Errores']);
  expect(headerRow(workbook, 'Incidencias')).toEqual([
    'Archivo', 'DNI/NIE', 'Trabajador', 'Empresa', 'Fecha', 'Incidencia', 'Carencia', 'Contingencia', 'CCC', 'CCC formateado', 'Días acumulados',
    'Fecha de la baja (alta corta)', 'Incidencia de la baja (alta corta)', 'Anulado',
  ]);
  const entries = XLSX.utils.sheet_to_json(workbook.Sheets.Incidencias!);
  expect(entries.length).toBeGreaterThan(1);
  // The worker's name, and the date as a date cell (a number shown dd/mm/yyyy), as a user's sheet sorts it (issue 43, 8).
  expect(workbook.Sheets.Incidencias!.C2).toMatchObject({ t: 's', v: 'MARIA GARCIA LOPEZ' });
  expect(workbook.Sheets.Incidencias!.E2).toMatchObject({ t: 'n', w: '10/01/2025' });

  await expectInHistory(page, 'FIE a incidencias A3', /\d+ slans?/);
});

test('Comprobar datos para altas en RED: a worker list comes back with a Resultado per row and a Resumen', async ({ page }) => {
  await signUp(page, newUser());
  await page.goto('/launcher/comprobar-altas-red');
  await expect(page.getByRole('heading', { level: 1, name: 'Comprobar datos para altas en RED' })).toBeVisible();
  await page.getByTestId('file-input').setInputFiles('resources/flows/comprobar-altas-red/fixtures/altas.xlsx');
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await expect(page.getByText('Coste estimado: 2 slans')).toBeVisible();

  const workbook = await launchAndDownload(page, 'Resultado');
  expect(workbook.SheetNames).toContain('Resumen');
  expect(headerRow(workbook, workbook.SheetNames[0]!)).toContain('Resultado');
  const results = XLSX.utils.sheet_to_json<Record<string, unknown>>(workbook.Sheets[workbook.SheetNames[0]!]!).map((row) => String(row.Resultado ?? ''));
  // Every row is judged: ready for RED, or the problems Sistema RED would reject it for.
  expect(results.length).toBeGreaterThan(1);
  for (const result of results) expect(result.length).toBeGreaterThan(0);

  await expectInHistory(page, 'Comprobar datos para altas en RED', /2 slans/);
});
