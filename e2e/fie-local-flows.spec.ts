import { createHash } from 'node:crypto';
import { expect, newUser, scheduleTomorrowNight, signUp, test } from './fixtures.ts';

/**
 * The FIE local processes are robots of the catalogue (issue 22): 'FIE de SILTRA a A3' opens in the
 * launcher like any desktop robot and is scheduled on the office PC; its schedule names the process
 * the PC will run (sync-siltra-a3).
 */
test("FIE de SILTRA a A3: scheduled from the web on the office PC, without a certificate, its schedule runs the process 'sync-siltra-a3'", async ({ page }) => {
  await signUp(page, newUser());
  // A PC of the firm, as its first certificate sync makes it (no agent needed for the web side).
  const synced = await page.request.post(`/api/certificates?machineName=${encodeURIComponent('PC Oficina')}`, {
    data: { machineHashCode: createHash('sha256').update(`pc-fie:${Date.now()}`).digest('hex'), digitalCertificates: [] },
  });
  expect([200, 201], await synced.text()).toContain(synced.status());

  await page.goto('/launcher/fie-siltra-a3');
  await expect(page.getByRole('heading', { level: 1, name: 'FIE de SILTRA a A3' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Certificado (opcional)' })).toBeVisible();
  await page.getByRole('radio', { name: /PC Oficina/ }).check();
  if (process.env.LAUNCHER_SHOTS) await page.screenshot({ path: `${process.env.LAUNCHER_SHOTS}/fie-siltra-a3.png`, fullPage: true });

  await scheduleTomorrowNight(page);

  const { items } = (await (await page.request.get('/api/browserflow/schedule')).json()) as { items: { browserFlow: string; localProcess: string | null; machine: { name: string } | null }[] };
  expect(items.filter((schedule) => schedule.browserFlow === 'fie-siltra-a3')).toEqual([expect.objectContaining({ localProcess: 'sync-siltra-a3', machine: expect.objectContaining({ name: 'PC Oficina' }) })]);
});
