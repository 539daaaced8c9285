import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { madridDayKey } from '#shared/time/madrid.ts';
import { E2E_CERTIFICATES } from './certificates.ts';
import { embeddedContext, screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { agentBridgeOf, startProcess, stop } from './processes.ts';

/**
 * Issue 24 end to end: the advisor syncs the desktop's two certificates, watches them, updates their DEHÚ
 * mailboxes against the LEMA stand-in (every request signed with WS-Security by the certificate's key, over
 * mutual TLS), searches, filters by caducidad, sorts, opens one notification (confirmation, PeticionAcceso,
 * the PDF shown) and finds it among the realizadas. Runs on the suite's agent, so it sits in the desktop lane.
 * The stand-in's mailboxes are shared by the whole run (an opened envío stays opened), so the test opens the
 * pending notification that expires first, whichever it is.
 */
const shot = (page: Page, name: string) => screenshotsInto(process.env.NOTIFICATIONS_SHOTS, page, name);
const DAY = 86_400_000;

test.skip(!process.env.E2E_NSS_DB, 'NSS tools (certutil, pk12util) are not installed: the agent has no test store.');



const rows = (page: Page) => page.locator('tbody tr.notifications-table__row');

/** The PC's certificates synced to the server for this user: what the configuration and the autopilot may use. */
async function syncCertificates(page: Page, deviceName: string): Promise<void> {
  await page.goto('/workspace');
  await page.getByLabel('Nombre del dispositivo').fill(deviceName);
  await page.getByRole('checkbox', { name: 'Seleccionar todos' }).check();
  await page.getByRole('button', { name: 'Sincronizar', exact: true }).click();
  await expect(page.getByText('Se han sincronizado 2 certificados')).toBeVisible();
}

test('the advisor watches two certificates, updates them from DEHÚ, searches, filters, sorts and opens a notification', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const desktop = await embeddedContext(browser, baseURL ?? '');
  const page = await desktop.newPage();
  await signUp(page, newUser());

  await syncCertificates(page, 'PC DEHÚ e2e');

  // Nothing watched yet: the §8 empty state.
  await page.goto('/notifications');
  await expect(page.getByText('Todavía no has actualizado ninguna notificación...')).toBeVisible();
  await shot(page, 'notifications-empty');

  // Both certificates watched.
  await page.getByRole('radio', { name: 'Configuración' }).click();
  await page.getByRole('checkbox', { name: 'Seleccionar todos los certificados de PC DEHÚ e2e' }).check();
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Certificados guardados.')).toBeVisible();
  await shot(page, 'notifications-config');

  // The update: this PC asks LEMA with each certificate; both finish.
  await page.getByRole('radio', { name: 'Notificaciones' }).click();
  await page.getByRole('button', { name: 'Actualizar notificaciones' }).click();
  await expect(page.getByText(/Notificaciones actualizadas: \d+ nuevas?\./)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/Última actualización: \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  // Elena's and the company's pending envíos (the stand-in's sample mailboxes), whatever other runs opened.
  await expect(page.getByText('Providencia de apremio')).toBeVisible();
  await expect(rows(page).filter({ hasText: 'ELENA RODRIGUEZ GARCIA' }).first()).toBeVisible();
  await expect(rows(page).filter({ hasText: 'B12345674' }).first()).toBeVisible();
  await shot(page, 'notifications-list');

  // Search (debounced, in the address).
  await page.getByRole('searchbox', { name: 'Buscar notificaciones' }).fill('apremio');
  await expect(page).toHaveURL(/search=apremio/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Tesorería General de la Seguridad Social');
  await page.getByRole('button', { name: 'Limpiar filtros' }).click();
  await expect(page).not.toHaveURL(/search=/);

  // Caducidad within the next three days: the providencia (8 days left) drops out.
  const today = madridDayKey(new Date());
  const inThreeDays = madridDayKey(new Date(Date.now() + 3 * DAY));
  await page.getByRole('button', { name: 'Filtros' }).click();
  const caducidad = page.getByRole('group', { name: 'Fecha de caducidad' });
  await caducidad.getByLabel('Desde').fill(today);
  await caducidad.getByLabel('Hasta').fill(inThreeDays);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`caducidad=${today}\\.\\.${inThreeDays}`));
  await expect(page.getByText('Providencia de apremio')).toHaveCount(0);
  await expect(rows(page).first()).toBeVisible();
  // The view survives a reload.
  await page.reload();
  await expect(page.getByText('Providencia de apremio')).toHaveCount(0);

  // Sorting: a new column starts descending, the same one toggles.
  const header = page.getByRole('columnheader', { name: 'Caducidad' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sortby=caducidad/);
  await expect(page).toHaveURL(/sortdir=asc/);
  await shot(page, 'notifications-filtered');

  // Opening the first to expire: a confirmation that says what it means, then the PDF.
  const first = rows(page).first();
  const concepto = (await first.locator('td[data-label="Concepto"]').innerText()).trim();
  await first.getByRole('button', { name: /^Abrir la notificación/ }).click();
  const confirm = page.getByRole('dialog', { name: '¿Abrir la notificación?' });
  await expect(confirm).toContainText('comparecencia');
  await confirm.getByRole('button', { name: 'Abrir la notificación' }).click();
  const detail = page.getByRole('dialog', { name: concepto });
  // Issue 39: an <object> (Chromium shows no PDF in a sandboxed iframe); the response is a sandbox where nothing runs.
  const viewer = detail.locator('object[type="application/pdf"][title="Documento de la notificación"]');
  await expect(viewer).toBeVisible({ timeout: 60_000 });
  const documentUrl = (await viewer.getAttribute('data')) ?? '';
  const pdf = await page.request.get(documentUrl);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-security-policy']).toBe("default-src 'none'; sandbox; frame-ancestors 'self'");
  expect(pdf.headers()['x-content-type-options']).toBe('nosniff');
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // Chromium's own PDF viewer took it (its extension frame sits under the document's frame).
  await expect.poll(() => page.frames().some((frame) => frame.url().startsWith('chrome-extension://')), { timeout: 30_000 }).toBe(true);
  await expect(detail.getByText('Este navegador no puede mostrar el PDF aquí')).toBeHidden();
  await expect(detail.getByRole('link', { name: /^Acuse de recibo:/ })).toBeVisible();
  await shot(page, 'notifications-detail');
  await detail.getByRole('button', { name: 'Cerrar' }).last().click();

  // It is now among the realizadas, accepted; the 12-day-old reclamación expired unopened.
  await page.getByRole('button', { name: 'Limpiar filtros' }).click();
  await page.getByRole('radio', { name: 'Realizadas' }).click();
  await expect(rows(page).filter({ hasText: concepto }).filter({ hasText: 'Aceptada' }).first()).toBeVisible();
  await expect(rows(page).filter({ hasText: 'Reclamación de deuda' }).filter({ hasText: 'Expirada' }).first()).toBeVisible();
  await shot(page, 'notifications-realizadas');

  // Home warns of the pending ones that expire within three days, and leads to them first-to-expire.
  await page.goto('/home');
  const banner = page.getByRole('status').filter({ hasText: /caducan? en los próximos 3 días/ });
  await expect(banner).toBeVisible();
  await shot(page, 'notifications-home-banner');
  await banner.getByRole('link', { name: 'Ver notificaciones' }).click();
  await expect(page).toHaveURL(/view=pendientes.*sortby=caducidad.*sortdir=asc|sortby=caducidad.*sortdir=asc.*view=pendientes/);

  await desktop.close();
});

test("the autopilot's Notificaciones updates its certificate at once and again 10 minutes after each run (moved clock)", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  // An agent of this test's own whose autopilot reads its time through an offset file, so ten minutes pass at once.
  const clockFile = join(process.env.E2E_DATA_DIR ?? '', 'agent-dehu-clock');
  await writeFile(clockFile, '0');
  const agent = startProcess('node', ['--import', 'tsx', 'main/agent.ts'], {
    ...(JSON.parse(process.env.E2E_AGENT_ENV ?? '{}') as Record<string, string>),
    AGENT_PORT: '0',
    AGENT_TOKEN: 'notifications-autopilot-agent-token',
    AUTOASESOR_AGENT_DATA: join(process.env.E2E_DATA_DIR ?? '', 'agent-dehu'),
    AUTOPILOT_CLOCK_OFFSET_FILE: clockFile,
  });
  try {
    const bridge = await agentBridgeOf(agent, 'the notifications agent');
    const desktop = await embeddedContext(browser, baseURL ?? '', bridge);
    const page = await desktop.newPage();
    await signUp(page, newUser());
    await syncCertificates(page, 'PC piloto DEHÚ');
    const elena = E2E_CERTIFICATES[0]!;
    const lastUpdate = async () => {
      const answer = await page.request.get('/api/notifications/certificates');
      const { items } = (await answer.json()) as { items: { commonName: string; lastUpdate: { state: string; finishedAt: string | null } | null }[] };
      const update = items.find((item) => item.commonName === elena.commonName)?.lastUpdate;
      return update?.state === 'done' ? update.finishedAt : null;
    };

    // This PC linked to the user (the update button does it) before the autopilot works for them.
    await page.goto('/notifications');
    await page.getByRole('radio', { name: 'Configuración' }).click();
    await page.getByRole('checkbox', { name: new RegExp(elena.commonName) }).check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Certificados guardados.')).toBeVisible();
    await page.getByRole('radio', { name: 'Notificaciones' }).click();
    await page.getByRole('button', { name: 'Actualizar notificaciones' }).click();
    await expect.poll(lastUpdate, { timeout: 60_000 }).not.toBeNull();
    const byHand = (await lastUpdate()) ?? '';

    // The app switched on with Elena's certificate: its task runs at once.
    await page.getByRole('button', { name: /^Piloto automático/ }).click();
    const panel = page.getByRole('dialog', { name: 'Piloto automático' });
    const app = panel.getByRole('region', { name: 'Notificaciones', exact: true });
    await app.getByRole('button', { name: 'Añadir certificado' }).click();
    const picker = panel.getByRole('region', { name: 'Añadir certificado a Notificaciones' });
    await picker.getByRole('checkbox', { name: new RegExp(elena.commonName) }).check();
    await picker.getByRole('button', { name: 'Añadir' }).click();
    await expect(app.getByText(elena.commonName)).toBeVisible();
    await app.getByRole('switch', { name: 'Notificaciones' }).click();
    const general = panel.getByRole('switch', { name: 'Activar / Desactivar todas' });
    if (!(await general.isChecked())) await general.click();
    const finishedAfter = async (previous: string) => {
      const at = await lastUpdate();
      return at !== null && at !== previous;
    };
    await expect.poll(() => finishedAfter(byHand), { timeout: 60_000 }).toBe(true);
    const first = (await lastUpdate()) ?? '';
    await expect(panel.getByText('Notificaciones DEHÚ').first()).toBeVisible();
    await shot(page, 'notifications-autopilot');

    // Not again before ten minutes: two loads (every 20 s) and many loop ticks (every 3 s) later, the same run.
    await page.waitForTimeout(25_000);
    expect(await lastUpdate()).toBe(first);

    // Ten minutes and a half on the autopilot's clock: the task comes back and runs.
    await writeFile(clockFile, String(10.5 * 60_000));
    await expect.poll(() => finishedAfter(first), { timeout: 60_000 }).toBe(true);
    await desktop.close();
  } finally {
    await stop(agent.child);
  }
});
