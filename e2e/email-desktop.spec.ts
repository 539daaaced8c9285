import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { embeddedContext, screenshotsInto } from './embedded-context.ts';
import { expect, newUser, officePc, signUp, test } from './fixtures.ts';
import { E2E_MICROSOFT_ACCOUNT } from './mail-providers.ts';

/**
 * Issue 25, the desktop's loopback flow (RFC 8252 §7.3) through the suite's agent: 'Conectar con Microsoft'
 * in the desktop app asks the bridge's OAuthConnect, which listens on 127.0.0.1 and "opens the system
 * browser". The agent has none, so it writes the address to AGENT_URL_OPENER_FILE; this test plays the
 * browser: it opens that address in a page of its own and accepts on the stand-in's consent page, which
 * sends the code to the agent's loopback listener. The renderer then hands the code and its PKCE verifier to
 * the server, which redeems it. Shares the suite's agent, so it runs in the desktop lane.
 */
const shot = (page: Page, name: string) => screenshotsInto(process.env.EMAIL_SHOTS, page, name);

async function openedUrls(): Promise<string[]> {
  const file = process.env.E2E_AGENT_URL_OPENER_FILE;
  if (!file) throw new Error('E2E_AGENT_URL_OPENER_FILE is not set: run through playwright.config.ts (global setup).');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error)));
  return text.split('\n').filter((line) => line.startsWith('http'));
}

test('the desktop app links a Microsoft mailbox through the loopback flow of its agent', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const desktop = await embeddedContext(browser, baseURL ?? '');
  const page = await desktop.newPage();
  await signUp(page, newUser());
  const machineId = await officePc(page, 'PC Escritorio correo');

  await page.goto(`/email?machine=${machineId}`);
  await page.getByLabel('Nombre de la configuración').fill('Avisos desde el despacho');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Conecta la cuenta' })).toBeVisible();

  const before = (await openedUrls()).length;
  await page.getByRole('button', { name: 'Conectar con Microsoft' }).click();
  await expect(page.getByText('Completa la conexión en el navegador…')).toBeVisible();
  await shot(page, 'email-desktop-waiting');

  // The agent's "system browser": the authorization address, with PKCE S256 and a loopback redirect.
  await expect.poll(async () => (await openedUrls()).length, { timeout: 15_000 }).toBe(before + 1);
  const authorization = new URL((await openedUrls())[before] ?? '');
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  expect(authorization.searchParams.get('scope')).toContain('Mail.Send');
  const systemBrowser = await browser.newPage();
  await systemBrowser.goto(authorization.href);
  await expect(systemBrowser.getByRole('heading', { name: 'Microsoft (simulado)' })).toBeVisible();
  await systemBrowser.getByRole('button', { name: 'Permitir' }).click();
  await expect(systemBrowser.getByText('Ya puedes cerrar esta pestaña', { exact: false })).toBeVisible();
  await systemBrowser.close();

  // Back in the app: the account is linked by the server and chosen.
  await expect(page.getByText(`Cuenta conectada: ${E2E_MICROSOFT_ACCOUNT}`)).toBeVisible({ timeout: 15_000 });
  const accounts = (await (await page.request.get('/api/mail/accounts')).json()) as { items: { provider: string; email: string; status: string }[] };
  expect(accounts.items).toEqual([expect.objectContaining({ provider: 'microsoft', email: E2E_MICROSOFT_ACCOUNT, status: 'linked' })]);
  expect(JSON.stringify(accounts)).not.toMatch(/token/i);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Revisa y guarda' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(E2E_MICROSOFT_ACCOUNT);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Configuración de correo guardada')).toBeVisible();
  await desktop.close();
});
