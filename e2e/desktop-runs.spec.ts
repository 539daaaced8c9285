import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_CERTIFICATES } from './certificates.ts';
import { chargesOf, runsOf } from './database.ts';
import { embeddedContext } from './embedded-context.ts';
import { expect, newUser, signIn, signUp, test, type NewUser } from './fixtures.ts';
import { agentBridgeOf, startProcess } from './processes.ts';

/**
 * Issue 7 end to end: the desktop flow 'Descargar justificantes' logs in to the mutual-TLS stand-in
 * portal (global setup) with a certificate of the agent's real NSS store, on this PC from the desktop
 * window and remotely from the web; and a desktop killed mid-run loses its run once, uncharged.
 */
const FLOW = 'descargar-justificantes';
const ELENA = E2E_CERTIFICATES[0]!;
/** The stand-in's six documents for ELENA's NIF are dated in 2026. */
const PDF_NAMES = [1, 2, 3, 4, 5, 6].map((n) => `${ELENA.nif}-2026-00${n}.pdf`);

test.skip(!process.env.E2E_NSS_DB, 'NSS tools (certutil, pk12util) are not installed: the agent has no test store.');


/** Fills the flow's first step: ELENA's certificate (from whichever device is chosen) and all of 2026. */
async function fillJustificantes(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Elegir certificado' }).click();
  const picker = page.getByRole('dialog', { name: 'Elige certificado' });
  await picker.getByRole('radio', { name: ELENA.commonName }).click();
  await picker.getByRole('button', { name: 'Aceptar' }).click();
  await expect(page.getByText(ELENA.commonName)).toBeVisible();
  await page.getByLabel(/^Desde/).fill('2026-01-01');
  await page.getByLabel(/^Hasta/).fill('2026-12-31');
}

test('on this PC the robot logs in with the certificate, streams its log and leaves the PDFs in its folder; from the web it runs remotely on that PC', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const advisor: NewUser = newUser();
  const desktop = await embeddedContext(browser, baseURL ?? '');
  const page = await desktop.newPage();
  await signUp(page, advisor);

  // Desktop window: 'Este dispositivo' is chosen; the certificate comes from this PC's store.
  await page.goto(`/launcher/${FLOW}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Descargar justificantes' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Este dispositivo/ })).toBeChecked();
  await fillJustificantes(page);
  await page.getByRole('button', { name: 'Lanzar tarea' }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'Justificantes descargados' })).toBeVisible({ timeout: 60_000 });
  for (const name of PDF_NAMES) await expect(page.getByRole('main').getByText(name)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abrir carpeta' })).toBeVisible();
  // Files kept on the PC are not offered as downloads.
  await expect(page.getByRole('link', { name: /^Descargar .*\.pdf$/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Ver consola' }).click();
  await expect(page.getByRole('log', { name: 'Consola' })).toContainText(ELENA.nif);

  // The run, as the server recorded it: on this PC, not remote, charged per document, files in its folder.
  const [local] = runsOf(advisor.email, FLOW);
  expect(local).toMatchObject({ state: 'finished', result: 'Success', launch_status: 200, remote: 0, cost: 6 });
  expect((JSON.parse(local!.output_file_names ?? '[]') as string[]).sort()).toEqual(PDF_NAMES);
  const folder = local!.output_folder ?? '';
  expect(folder.startsWith(join(process.env.E2E_DATA_DIR ?? '', 'agent'))).toBe(true);
  expect((await readdir(folder)).sort()).toEqual(PDF_NAMES);
  const pdf = await readFile(join(folder, PDF_NAMES[0]!));
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.toString('latin1')).toContain(ELENA.nif);
  expect(chargesOf(local!.id)).toBe(1);

  await page.goto('/flows');
  const history = page.getByRole('table', { name: 'Historial de robots' });
  const localRow = history.getByRole('row').filter({ hasText: 'Descargar justificantes' }).first();
  await expect(localRow).toContainText('Finalizado');
  await expect(localRow).not.toContainText('Lanzamiento remoto');

  // The PC's certificates are synced so the web app can offer them on this machine.
  await page.goto('/workspace');
  await page.getByLabel('Nombre del dispositivo').fill('PC Oficina robots');
  await page.getByRole('checkbox', { name: 'Seleccionar todos' }).check();
  await page.getByRole('button', { name: 'Sincronizar', exact: true }).click();
  await expect(page.getByText('Se han sincronizado 2 certificados')).toBeVisible();

  // The same advisor in a browser: the robot runs on that PC, and its files come back to the server.
  const web = await browser.newContext({ baseURL });
  const webPage = await web.newPage();
  await webPage.goto('/auth');
  await signIn(webPage, advisor);
  await webPage.waitForURL((url) => !url.pathname.startsWith('/auth'));
  await webPage.goto(`/launcher/${FLOW}`);
  const machine = webPage.getByRole('radio', { name: /PC Oficina robots/ });
  await expect(webPage.getByRole('group', { name: /Dispositivo/ }).getByText('Conectado')).toBeVisible();
  await machine.check();
  await fillJustificantes(webPage);
  await webPage.getByRole('button', { name: 'Lanzar tarea' }).click();
  await expect(webPage.getByRole('heading', { level: 2, name: 'Justificantes descargados' })).toBeVisible({ timeout: 60_000 });
  const download = webPage.waitForEvent('download');
  await webPage.getByRole('link', { name: `Descargar ${PDF_NAMES[0]}` }).click();
  const file = await (await download).path();
  expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');

  const [remote] = runsOf(advisor.email, FLOW);
  expect(remote).toMatchObject({ state: 'finished', result: 'Success', remote: 1, cost: 6 });
  await webPage.goto('/flows');
  const remoteRow = webPage.getByRole('table', { name: 'Historial de robots' }).getByRole('row').filter({ hasText: 'Descargar justificantes' }).first();
  await expect(remoteRow).toContainText('Lanzamiento remoto');
  await expect(remoteRow).toContainText('Finalizado');
  await web.close();
  await desktop.close();
});

test('a desktop killed mid-run loses its run once: Robot interrumpido, nothing charged', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // A second agent of its own (same PC, own data), so the suite's agent keeps serving the other tests.
  const token = 'kill-test-agent-token';
  const agent = startProcess('node', ['--import', 'tsx', 'main/agent.ts'], {
    ...(JSON.parse(process.env.E2E_AGENT_ENV ?? '{}') as Record<string, string>),
    AGENT_PORT: '0',
    AGENT_TOKEN: token,
    AUTOASESOR_AGENT_DATA: join(process.env.E2E_DATA_DIR ?? '', 'agent-killed'),
  });
  try {
    const bridge = await agentBridgeOf(agent, 'the second agent');
    const desktop = await embeddedContext(browser, baseURL ?? '', bridge);
    const page = await desktop.newPage();
    const advisor = newUser();
    await signUp(page, advisor);
    await page.goto(`/launcher/${FLOW}`);
    await expect(page.getByRole('radio', { name: /Este dispositivo/ })).toBeChecked();
    await fillJustificantes(page);
    await page.getByRole('button', { name: 'Lanzar tarea' }).click();

    // Once the PC holds the run (its robot is starting Chromium), the agent dies without a word.
    await expect.poll(() => runsOf(advisor.email, FLOW)[0]?.state, { timeout: 20_000, intervals: [50] }).toBe('running');
    agent.child.kill('SIGKILL');

    // The lease (6 s here) runs out and the server closes the run, once.
    await expect.poll(() => runsOf(advisor.email, FLOW)[0]?.state, { timeout: 30_000 }).toBe('finished');
    const runs = runsOf(advisor.email, FLOW);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ result: 'FlowAborted', launch_status: 299, cost: 0, message: 'El dispositivo dejó de responder durante la ejecución. No se ha cobrado.' });
    expect(chargesOf(runs[0]!.id)).toBe(0);

    await page.goto('/flows');
    const row = page.getByRole('table', { name: 'Historial de robots' }).getByRole('row').filter({ hasText: 'Descargar justificantes' }).first();
    await expect(row).toContainText('Robot interrumpido');
    await desktop.close();
  } finally {
    agent.child.kill('SIGKILL');
  }
});
