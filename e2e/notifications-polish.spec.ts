import AxeBuilder from '@axe-core/playwright';
import { createHash, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, newUser, signIn, signUp, test } from './fixtures.ts';

/**
 * Issue 43, DEHÚ items 10–13, as a new user meets them in Chromium at 1366 and 390 px: an update queued
 * for an offline PC is shown and kept across a reload and never queued twice; a page past the end comes
 * back to the last page; the demo's accepted notification shows its PDF; the detail modal passes axe at
 * 390 px, the side menu's label fits, the search placeholder is not cut, no blank band under the filters,
 * and a notification card is compact on a phone. NOTIFICATIONS_POLISH_SHOTS=<folder> keeps screenshots.
 */
const SHOTS = process.env.NOTIFICATIONS_POLISH_SHOTS;
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const DEMO = { email: 'demo@autoasesor.es', password: 'Demo1234!' };
const DAY = 86_400_000;

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function signInDemo(page: Page): Promise<void> {
  await page.goto('/auth');
  await signIn(page, DEMO);
  await expect(page).toHaveURL(/\/home$/);
}

/** A certificate as the desktop syncs it (valid for a year), on an office PC that never connects. */
function certificateOf(name: string) {
  const now = Date.now();
  return {
    fingerprint: createHash('sha256').update(`cert:${name}:${randomUUID()}`).digest('hex'),
    serialNumber: randomUUID().replaceAll('-', '').toUpperCase(),
    subjectString: `CN=${name} - 00000000T, serialNumber=IDCES-00000000T, C=ES`,
    commonName: `${name} - 00000000T`,
    issuer: 'AC FNMT Usuarios',
    notBefore: new Date(now - 300 * DAY).toISOString(),
    notAfter: new Date(now + 365 * DAY).toISOString(),
    nifVat: '00000000T',
    kind: 'person',
    store: 'windows',
  };
}

test('an update queued for an offline PC shows after a reload and is never queued twice', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signUp(page, newUser());
  // An office PC of the firm, as its first certificate sync registers it, that never connects.
  const pcName = 'PC Gestoría';
  const certificate = certificateOf('ANA GARCIA');
  const synced = await page.request.post(`/api/certificates?machineName=${encodeURIComponent(pcName)}`, {
    data: { machineHashCode: createHash('sha256').update(`${pcName}:${randomUUID()}`).digest('hex'), digitalCertificates: [certificate] },
  });
  expect([200, 201], await synced.text()).toContain(synced.status());
  const { items: machines } = (await (await page.request.get('/api/machines')).json()) as { items: { _id: string; name: string; savedAs: string }[] };
  const machineId = machines.find((item) => item.name === pcName || item.savedAs === pcName)?._id ?? '';
  const watched = await page.request.put('/api/notifications/certificates', { data: { certificates: [{ machineId, fingerprint: certificate.fingerprint }] } });
  expect(watched.status(), await watched.text()).toBe(200);

  await page.goto('/notifications');
  const update = page.getByRole('button', { name: 'Actualizar notificaciones' });
  const launches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/browserflow/execution/actualizar-notificaciones-dehu')) launches.push(request.url());
  });
  await update.click();
  const progress = page.getByRole('region', { name: 'Progreso de la actualización' });
  await expect(progress.getByText(/En cola desde \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  const pending = page.getByRole('button', { name: 'Actualización en cola' });
  await expect(pending).toBeDisabled();
  await shot(page, 'pending-update-1366');

  // A reload keeps it: it is the server's.
  await page.reload();
  await expect(progress.getByText(/En cola desde \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await expect(progress.getByText('ANA GARCIA - 00000000T')).toBeVisible();
  await expect(pending).toBeDisabled();
  expect(launches).toHaveLength(1);

  // Even asked again directly, the server answers the same run: one update queued for the PC.
  const { items } = (await (await page.request.get('/api/notifications/certificates')).json()) as { items: { pendingUpdate: { runId: string } | null }[] };
  const runId = items[0]?.pendingUpdate?.runId;
  expect(runId).toBeTruthy();
  const again = await page.request.post('/api/browserflow/execution/actualizar-notificaciones-dehu', {
    data: { inputs: {}, json: true, idempotencyKey: randomUUID(), machineId },
  });
  expect(again.status()).toBe(202);
  expect(((await again.json()) as { runId: string }).runId).toBe(runId);
  await page.setViewportSize(PHONE);
  await expect(progress.getByText(/En cola desde/)).toBeVisible();
  expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await shot(page, 'pending-update-390');
});

test('the demo: a page past the end comes back to the last one; the accepted notification shows its PDF; axe and the layout at 390 px', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signInDemo(page);

  // 11: page 9 of five notifications: the first (and last) page, in the address too, with its rows.
  await page.goto('/notifications?page=9&pageSize=10');
  await expect(page).toHaveURL(/\/notifications\?pageSize=10$/);
  await expect(page.locator('tbody tr.notifications-table__row')).toHaveCount(5);
  await expect(page.getByText('No hay notificaciones en esta vista')).toHaveCount(0);

  // 13: the active menu item reads whole at 1366 px.
  const active = page.locator('.app-nav a.active span');
  await expect(active).toHaveText('Notificaciones DEHÚ');
  const label = await active.evaluate((node) => ({ text: node.scrollWidth, room: node.clientWidth }));
  expect.soft(label.text, `the active menu label: ${label.text} px in ${label.room} px`).toBeLessThanOrEqual(label.room);
  await expectPlaceholderFits(page);
  await shot(page, 'list-1366');

  // 12: the accepted one has its notice (shown) and acuse (downloads).
  await page.getByRole('radio', { name: 'Realizadas' }).click();
  await page.getByRole('button', { name: /Abrir la notificación «Acuerdo de devolución/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Acuerdo de devolución. IVA 2025 2T' });
  await expect(dialog.getByRole('link', { name: 'Documento: DEMO-0006.pdf' })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Acuse de recibo: acuse-DEMO-0006.pdf' })).toBeVisible();
  const viewer = dialog.locator('object.notifications-detail__viewer');
  await expect(viewer).toBeVisible();
  const pdf = await page.request.get((await viewer.getAttribute('data')) ?? '');
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await shot(page, 'detail-1366');

  // 13: at 390 px the modal's scrolling body is reachable by keyboard and named: no serious axe finding.
  await page.setViewportSize(PHONE);
  await expect(dialog).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect.soft(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
  await shot(page, 'detail-390');
  await dialog.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(dialog).toHaveCount(0);

  // The expired one has no document: on a short phone screen its body scrolls with nothing focusable inside, so the body itself takes focus.
  await page.setViewportSize({ width: 390, height: 600 });
  await page.getByRole('button', { name: /Abrir la notificación «Resolución de alta en RETA/ }).click();
  const expired = page.getByRole('dialog', { name: 'Resolución de alta en RETA' });
  await expect(expired.getByText('Todavía no se ha descargado el documento de esta notificación.')).toBeVisible();
  const body = expired.getByRole('region', { name: 'Resolución de alta en RETA' });
  await expect(body).toHaveAttribute('tabindex', '0');
  const expiredAxe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect.soft(expiredAxe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
  await shot(page, 'detail-expired-390');
  await expired.getByRole('button', { name: 'Cerrar' }).last().click();
  await expect(expired).toHaveCount(0);
  await page.setViewportSize(PHONE);

  // 13 at 390 px: the placeholder whole, no blank band under the filters, cards of a few lines.
  await page.getByRole('radio', { name: 'Pendientes' }).click();
  await expect(page.locator('tbody tr.notifications-table__row')).toHaveCount(5);
  await expectPlaceholderFits(page);
  const gap = await page.evaluate(() => {
    const search = document.querySelector('.notifications-filters__row')?.getBoundingClientRect();
    const total = document.querySelector('.notifications-total')?.getBoundingClientRect();
    return search && total ? total.top - search.bottom : Number.NaN;
  });
  expect.soft(gap, 'blank space under the filters').toBeLessThan(40);
  const cards = await page.locator('tbody tr.notifications-table__row').evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
  expect.soft(Math.max(...cards), 'a card\'s height').toBeLessThan(PHONE.height / 3);
  const overflow = await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'list-390');
});

/** The search box's placeholder is drawn whole: its text is narrower than the input's content box. */
async function expectPlaceholderFits(page: Page): Promise<void> {
  const fit = await page.getByRole('searchbox', { name: 'Buscar notificaciones' }).evaluate((node) => {
    const input = node as HTMLInputElement;
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return { text: 0, room: 0 };
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: Math.ceil(context.measureText(input.placeholder).width), room: Math.floor(room) };
  });
  expect.soft(fit.text, `placeholder ${fit.text} px in ${fit.room} px`).toBeLessThanOrEqual(fit.room);
}
