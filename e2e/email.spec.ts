import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { screenshotsInto } from './embedded-context.ts';
import { setUsedCredits } from './database.ts';
import { expect, newUser, officePc, signUp, test } from './fixtures.ts';
import { linksIn, mailsTo } from './mailbox.ts';
import { E2E_GOOGLE_ACCOUNT, messagesTo } from './mail-providers.ts';

/**
 * Issue 25 in the browser, web flow: the advisor writes the message, links Google through the server's
 * authorization-code flow (the stand-in's consent page, back to /oauth-response), saves the config on an
 * office PC, then a robot's result reaches the fake Gmail with its file intact; and a scheduled run refused
 * for credits tells its user once. EMAIL_SHOTS=<dir> keeps 1366 and 390 px screenshots.
 */
const shot = (page: Page, name: string) => screenshotsInto(process.env.EMAIL_SHOTS, page, name);
const workbookPath = new URL('../resources/flows/validar-identificadores/fixtures/trabajadores.xlsx', import.meta.url);
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Opens the newest run's detail in the history (Robots > Historial). */
async function firstRunDetail(page: Page): Promise<void> {
  const table = page.getByRole('table', { name: 'Historial de robots' });
  await table.locator('tbody > tr.ui-table__row').first().getByRole('button', { name: 'Mostrar detalle' }).click();
}

test('the email wizard links Google (web flow) and a robot result arrives at Gmail with its workbook intact', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser());
  const machineId = await officePc(page, 'PC Correo e2e');

  // 1 Mensaje: the defaults, previewed with example values.
  await page.goto(`/email?machine=${machineId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Configuración de correo' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Prepara el mensaje' })).toBeVisible();
  await page.getByLabel('Nombre de la configuración').fill('Resultados a clientes');
  await page.getByLabel('Nombre del remitente (opcional)').fill('Asesoría Ruiz');
  await expect(page.getByText('Resultado de Validar identificadores del', { exact: false }).first()).toBeVisible();
  await shot(page, 'email-message');
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // 2 Cuenta: none yet; Google's consent page (the stand-in), then back through /oauth-response.
  await expect(page.getByRole('heading', { name: 'Conecta la cuenta' })).toBeVisible();
  await expect(page.getByText('Aún no has conectado ninguna cuenta de correo')).toBeVisible();
  await shot(page, 'email-account');
  await page.getByRole('button', { name: 'Conectar con Google' }).click();
  await expect(page.getByRole('heading', { name: 'Google (simulado)' })).toBeVisible();
  await expect(page.getByLabel('Correo electrónico')).toHaveValue(E2E_GOOGLE_ACCOUNT);
  await page.getByRole('button', { name: 'Permitir' }).click();

  // 3 Resumen: the wizard comes back with its draft and the linked account chosen.
  await expect(page.getByRole('heading', { name: 'Revisa y guarda' })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/email/);
  await expect(page.getByRole('main')).toContainText(E2E_GOOGLE_ACCOUNT);
  await expect(page.getByRole('main')).toContainText('Resultados a clientes');
  await shot(page, 'email-summary');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Configuración de correo guardada')).toBeVisible();
  await expect(page).toHaveURL(/\/workspace\?dispositivo=/);
  // Back in Mis recursos on that PC's configurations, the new one listed with its account.
  await expect(page.getByRole('list', { name: 'Configuraciones del dispositivo' })).toContainText('Resultados a clientes');
  await expect(page.getByRole('list', { name: 'Configuraciones del dispositivo' })).toContainText(E2E_GOOGLE_ACCOUNT);

  // The robot, launched with 'Enviar resultado por email'.
  const recipient = `cliente.${randomUUID().slice(0, 8)}@empresa-e2e.es`;
  await page.goto('/launcher/validar-identificadores');
  await page.getByTestId('file-input').setInputFiles(workbookPath.pathname);
  await expect(page.getByText('Archivo subido')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Enviar resultado por email' }).check();
  await page.getByLabel('Configuración de correo').selectOption({ label: `Resultados a clientes — ${E2E_GOOGLE_ACCOUNT} (Google (Gmail))` });
  await page.getByLabel('Destinatarios').fill(recipient);
  await page.getByLabel('Destinatarios').press('Enter');
  await shot(page, 'email-launcher');
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Resultado' })).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /^Descargar .*\.xlsx$/ }).click()]);
  const output = await readFile(await download.path());

  // The outbox sends it within a pass or two (5 s): from the linked mailbox, with the rendered subject.
  await expect.poll(async () => (await messagesTo(recipient)).length, { timeout: 30_000 }).toBe(1);
  const [message] = await messagesTo(recipient);
  expect(message?.provider).toBe('google');
  expect(message?.account).toBe(E2E_GOOGLE_ACCOUNT);
  expect(message?.subject).toMatch(/^Resultado de Validar identificadores del \d{2}\/\d{2}\/\d{4}$/);
  expect(message?.from).toBe(E2E_GOOGLE_ACCOUNT);
  expect(message?.fromName).toBe('Asesoría Ruiz');
  expect(message?.attachments).toHaveLength(1);
  expect(message?.attachments[0]?.filename).toBe(download.suggestedFilename());
  expect(message?.attachments[0]?.sha256).toBe(sha256(output));

  // The run's history says it went.
  await page.goto('/flows');
  await firstRunDetail(page);
  const deliveries = page.getByRole('region', { name: 'Correos de esta ejecución' });
  await expect(deliveries).toContainText('Resultado por email');
  await expect(deliveries).toContainText(recipient);
  await expect(deliveries).toContainText(/Enviado/);
  await shot(page, 'email-history');
});

test('a scheduled run refused for credits sends its user one notice, and the history shows it', async ({ page }) => {
  test.setTimeout(90_000);
  const user = newUser();
  await signUp(page, user);
  const upload = await page.request.post('/api/storage/uploads', {
    multipart: { file: { name: 'trabajadores.xlsx', mimeType: XLSX_MIME, buffer: await readFile(workbookPath) } },
  });
  expect(upload.status()).toBe(201);
  const [file] = ((await upload.json()) as { items: { id: string; name: string }[] }).items;
  // The whole trial spent: the schedule's run is refused (402) when it comes due.
  setUsedCredits(user.email, 500);
  const scheduled = await page.request.post('/api/browserflow/schedule/validar-identificadores', {
    data: { scheduledDate: new Date().toISOString(), flowInputs: { workbook: [{ uploadId: file?.id, name: file?.name }], columns: {} } },
  });
  expect([200, 201], await scheduled.text()).toContain(scheduled.status());

  // No linked mailbox in this firm: the notice goes through the server's SMTP.
  await expect.poll(async () => (await mailsTo(user.email)).filter((mail) => mail.subject.startsWith('Aviso de AutoAsesor')).length, { timeout: 40_000 }).toBe(1);
  const [notice] = (await mailsTo(user.email)).filter((mail) => mail.subject.startsWith('Aviso de AutoAsesor'));
  expect(notice?.subject).toContain('Validar identificadores');
  expect(notice?.text).toContain('La ejecución programada de «Validar identificadores»');
  expect(notice?.text).toMatch(/Motivo: Insuficientes slans/);
  expect(notice?.text).toMatch(/\/flows\?robot=validar-identificadores&tipo=scheduled&desde=\d{4}-\d{2}-\d{2}/);
  // A few more passes of the outbox (every 5 s) add nothing.
  await page.waitForTimeout(11_000);
  expect((await mailsTo(user.email)).filter((mail) => mail.subject.startsWith('Aviso de AutoAsesor'))).toHaveLength(1);

  // The notice's link opens the history on that robot's scheduled runs of the day.
  const link = new URL(linksIn(notice?.text ?? '').find((url) => url.includes('/flows?')) ?? '');
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByText('1 ejecución')).toBeVisible();
  await firstRunDetail(page);
  const deliveries = page.getByRole('region', { name: 'Correos de esta ejecución' });
  await expect(deliveries).toContainText('Aviso de fallo');
  await expect(deliveries).toContainText('Servidor de AutoAsesor');
  await expect(deliveries).toContainText(/Enviado/);
});
