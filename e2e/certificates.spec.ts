import type { BrowserContext } from '@playwright/test';
import { E2E_CERTIFICATES } from './certificates.ts';
import { joinFirmOf } from './database.ts';
import { embeddedContext } from './embedded-context.ts';
import { expect, newUser, signUp, test, type NewUser } from './fixtures.ts';

/**
 * Issue 6 end to end: the headless agent reads a real NSS store (global setup) and serves the bridge;
 * in embedded mode the selector lists its certificates and syncs them; a colleague on the web sees
 * the shared machine's certificates, and another firm sees none of them.
 */

test.skip(!process.env.E2E_NSS_DB, 'NSS tools (certutil, pk12util) are not installed: the agent has no test store.');


async function signedUp(context: BrowserContext, user: NewUser = newUser()) {
  const page = await context.newPage();
  await signUp(page, user);
  return { page, user };
}

test('the desktop lists its store, syncs and shares it; a colleague on the web sees it, another firm does not', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  // The advisor in the desktop app.
  const desktop = await embeddedContext(browser, baseURL ?? '');
  const { page, user: advisor } = await signedUp(desktop);
  await page.goto('/workspace');
  // The agent reads its NSS store with certutil (a process per call): slow when the machine is busy.
  await expect(page.getByRole('button', { name: /Mis certificados en este dispositivo/ })).toBeVisible({ timeout: 20_000 });
  const local = page.getByRole('group', { name: 'Certificados de este dispositivo' }).or(page.getByLabel('Certificados de este dispositivo'));
  for (const { commonName, nif } of E2E_CERTIFICATES) {
    await expect(local.getByText(commonName, { exact: true })).toBeVisible();
    await expect(local.getByText(nif).first()).toBeVisible();
  }
  // The one that expires soon says so, with its date.
  await expect(local.getByText(/Caduca el \d{2}\/\d{2}\/\d{4}/).first()).toBeVisible();
  await expect(local.getByText(/Caduca en (19|20) días/)).toBeVisible();

  await page.getByLabel('Nombre del dispositivo').fill('PC Oficina e2e');
  await page.getByRole('checkbox', { name: 'Seleccionar todos' }).check();
  await page.getByRole('button', { name: 'Sincronizar', exact: true }).click();
  await expect(page.getByText('Se han sincronizado 2 certificados')).toBeVisible();
  await page.getByRole('switch', { name: 'Compartir con mi despacho' }).or(page.getByRole('checkbox', { name: 'Compartir con mi despacho' })).click();
  await expect(page.getByText('Dispositivo compartido con tu despacho')).toBeVisible();

  // The radar names the certificate, its client and the machine that holds it.
  await page.goto('/workspace?vista=caducidades');
  const radarRow = page.getByRole('row').filter({ hasText: E2E_CERTIFICATES[0]?.commonName ?? '' });
  await expect(radarRow).toContainText('78816596N');
  await expect(radarRow).toContainText('PC Oficina e2e');
  await desktop.close();

  // A colleague of the same firm, in a browser: no local store, but the shared machine and its certificates.
  const web = await browser.newContext({ baseURL });
  const colleague = newUser();
  const colleaguePage = (await signedUp(web, colleague)).page;
  joinFirmOf(colleague.email, advisor.email);
  await colleaguePage.goto('/workspace');
  await expect(colleaguePage.getByText('Certificados locales no disponibles')).toBeVisible();
  await colleaguePage.getByRole('button', { name: /PC Oficina e2e/ }).click();
  for (const { commonName } of E2E_CERTIFICATES) await expect(colleaguePage.getByText(commonName, { exact: true })).toBeVisible();
  await web.close();

  // Another firm sees none of it.
  const other = await browser.newContext({ baseURL });
  const stranger = (await signedUp(other)).page;
  // The server's answer first (what another firm must never get), then the screen; under a full suite's
  // load the first paint of a fresh context waits on the route's chunk and this list (CI took over 7 s once).
  const machinesAnswer = stranger.waitForResponse((response) => new URL(response.url()).pathname === '/api/machines' && response.request().method() === 'GET');
  await stranger.goto('/workspace');
  const answer = await machinesAnswer;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { items: unknown[] }).items).toEqual([]);
  await expect(stranger.getByText('No hay compartidos en tu entorno de trabajo')).toBeVisible({ timeout: 20_000 });
  await expect(stranger.getByText('PC Oficina e2e')).toHaveCount(0);
  await expect(stranger.getByText(E2E_CERTIFICATES[0]?.commonName ?? '')).toHaveCount(0);
  await other.close();
});
