import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { E2E_GOOGLE_ACCOUNT, messagesTo } from './mail-providers.ts';

/**
 * Issue 43, items 1–3 in the browser: a firm with no PC keeps an email configuration of its own (said
 * before step 1), with its CCCs; 'Siguiente' goes to the first error; step 3 shows the message as it will
 * read; the saved config is edited in place; and Validar identificadores (a server robot) sends its result
 * with it, the Resultado line written from the run's figures. EMAIL_SHOTS=<dir> keeps 1366 and 390 px screenshots.
 */
const shot = (page: Page, name: string) => screenshotsInto(process.env.EMAIL_SHOTS, page, name);
const workbookPath = new URL('../resources/flows/validar-identificadores/fixtures/trabajadores.xlsx', import.meta.url);

test('a firm with no device keeps an email config, edits it, and a server robot emails its result with it', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser());

  await page.goto('/email');
  await expect(page.getByRole('heading', { level: 1, name: 'Configuración de correo' })).toBeVisible();
  await expect(page.getByText('Dónde se guarda: Toda la asesoría')).toBeVisible();
  await expect(page.getByText('No tienes dispositivos')).toHaveCount(0);

  // 'Siguiente' with no name: the name field takes the focus, its error under it.
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByLabel('Nombre de la configuración')).toBeFocused();
  await expect(page.getByText('Pon un nombre a la configuración')).toBeVisible();
  await shot(page, 'email-firm-error');
  await page.getByLabel('Nombre de la configuración').fill('Resultados de la asesoría');
  await page.getByLabel('CCC (opcional, uno por línea)').fill('28255627528');
  await page.getByRole('button', { name: 'Siguiente' }).click();

  await page.getByRole('button', { name: 'Conectar con Google' }).click();
  await page.getByRole('button', { name: 'Permitir' }).click();
  await expect(page.getByRole('heading', { name: 'Revisa y guarda' })).toBeVisible({ timeout: 15_000 });
  const preview = page.getByTestId('email-summary-preview');
  await expect(preview).toContainText('Resultado: Completado: 1.250 filas comprobadas, 3 con errores. Coste: 13 slans');
  await expect(page.getByRole('main')).not.toContainText('[[');
  await shot(page, 'email-firm-summary');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Configuración de correo guardada')).toBeVisible();
  await expect(page).toHaveURL(/\/workspace$/);
  const list = page.getByRole('list', { name: 'Configuraciones de correo de la asesoría' });
  await expect(list).toContainText('Resultados de la asesoría');
  await expect(list).toContainText('CCC: 28255627528');
  await shot(page, 'email-firm-workspace');

  // Edited in place.
  await page.getByRole('link', { name: 'Editar la configuración Resultados de la asesoría' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar configuración de correo' })).toBeVisible();
  await expect(page.getByLabel('Nombre de la configuración')).toHaveValue('Resultados de la asesoría');
  await page.getByLabel('Nombre de la configuración').fill('Resultados a clientes');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Configuración de correo actualizada')).toBeVisible();
  await expect(list).toContainText('Resultados a clientes');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // The server robot, with the firm's config.
  const recipient = `cliente.${randomUUID().slice(0, 8)}@empresa-e2e.es`;
  await page.goto('/launcher/validar-identificadores');
  await page.getByTestId('file-input').setInputFiles(workbookPath.pathname);
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Enviar resultado por email' }).check();
  await page.getByLabel('Configuración de correo').selectOption({ label: `Resultados a clientes — ${E2E_GOOGLE_ACCOUNT} (Google (Gmail))` });
  await page.getByLabel('Destinatarios').fill(recipient);
  await page.getByLabel('Destinatarios').press('Enter');
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });

  await expect.poll(async () => (await messagesTo(recipient)).length, { timeout: 30_000 }).toBe(1);
  const [message] = await messagesTo(recipient);
  const text = message?.text.replace(/\r\n/g, '\n') ?? '';
  expect(text).toMatch(/\nResultado: Completado: 5 filas comprobadas, (ninguna con errores|\d+ con errores?)\. Coste: 1 slan\n/);
  expect(text).not.toMatch(/\n\s*\n\s*\n/);
});
