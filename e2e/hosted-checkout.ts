import { expect, type Page } from '@playwright/test';
import { runsOf, setUsedCredits } from './database.ts';

const workbook = 'resources/flows/validar-identificadores/fixtures/trabajadores.xlsx';

/** Fills the stand-in's hosted card page (Stripe Checkout's place) and presses its button. */
export async function payOnHostedPage(page: Page, card: string, button: 'Suscribirse' | 'Guardar tarjeta'): Promise<void> {
  await page.getByLabel('Número de tarjeta').fill(card);
  await page.getByLabel('Caducidad (MM/AA)').fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Titular').fill('Marta Ruiz');
  await page.getByRole('button', { name: button }).click();
}

/** Before the first checkout Pagos asks for the billing info (the first invoice carries it), then goes to Stripe. */
export async function giveBillingInfo(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Datos de facturación' });
  await dialog.getByLabel('Nombre o razón social').fill('Asesoría Ruiz SL');
  await dialog.getByLabel('NIF / CIF').fill('B12345674');
  await dialog.getByLabel('Email de facturación').fill('facturas@asesoria-ruiz.es');
  await dialog.getByLabel('Dirección', { exact: true }).fill('Calle Mayor 1');
  await dialog.getByLabel('Código postal').fill('28013');
  await dialog.getByLabel('Localidad').fill('Madrid');
  await dialog.getByLabel('Provincia').fill('Madrid');
  await dialog.getByRole('button', { name: 'Guardar y continuar al pago' }).click();
}

/**
 * Past the paid plan's limit, a launch of Validar identificadores: the 402 prompt says what the extra
 * costs (the plan's price per slan), 'Continuar' runs it on extra usage, and it succeeds. Its run.
 */
export async function launchOnExtraUsage(page: Page, email: string) {
  setUsedCredits(email, 2_000);
  await page.goto('/launcher/validar-identificadores');
  await page.getByTestId('file-input').setInputFiles(workbook);
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  const prompt = page.getByRole('dialog', { name: 'No tienes suficientes slans' });
  await expect(prompt).toContainText(/a 0,03\s€ por slan\./);
  await prompt.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });
  const [run] = runsOf(email, 'validar-identificadores');
  expect(run?.result).toBe('Success');
  return run;
}
