import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { nextRunDate } from '#shared/schedule/next-run.ts';
import { TODAY_GROUP_TITLE } from '#shared/schedule/tasks.ts';
import { formatMadridDate, madridDayKey } from '#shared/time/madrid.ts';
import { E2E_CERTIFICATES } from './certificates.ts';
import { chargesOf, runsOf } from './database.ts';
import { embeddedContext } from './embedded-context.ts';
import { expect, newUser, signIn, signUp, test, type NewUser } from './fixtures.ts';
import { agentBridgeOf, startProcess } from './processes.ts';

/**
 * Issue 8 end to end: 'Descargar justificantes' scheduled on 'Este dispositivo' from the launcher, once
 * as a one-off and once repeating every day, for the next minute; the desktop's 'Piloto automático'
 * panel lists both for today, this PC's autopilot (an agent of the test's own) launches each slot when
 * it falls due, the runs show in the history as remote launches with their log, the one-off is done and
 * the repeating one moves to tomorrow; one run per slot, each charged once. On the web the panel is
 * read-only: 'Robots programados', no apps, no deletes, the repeating schedule with its runs.
 */
const FLOW = 'descargar-justificantes';
const ELENA = E2E_CERTIFICATES[0]!;
const REPEAT_TEXT = 'Se lanza cada 1 día';

test.skip(!process.env.E2E_NSS_DB, 'NSS tools (certutil, pk12util) are not installed: the agent has no test store.');

const madrid = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', ...options });
/** 'HH:mm' on the Madrid wall clock. */
const madridTime = (date: Date) => madrid({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
/** 'dd/mm/yyyy' on the Madrid wall clock. */
const madridDay = (date: Date) => madrid({ day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);


/** The launcher's 'Programar': ELENA's certificate from this PC, all of 2026, at `at` (Madrid), maybe every day. */
async function scheduleFromLauncher(page: Page, at: Date, repeat: boolean): Promise<void> {
  await page.goto(`/launcher/${FLOW}`);
  await expect(page.getByRole('radio', { name: /Este dispositivo/ })).toBeChecked();
  await page.getByRole('button', { name: 'Elegir certificado' }).click();
  const picker = page.getByRole('dialog', { name: 'Elige certificado' });
  await picker.getByRole('radio', { name: ELENA.commonName }).click();
  await picker.getByRole('button', { name: 'Aceptar' }).click();
  await page.getByLabel(/^Desde/).fill('2026-01-01');
  await page.getByLabel(/^Hasta/).fill('2026-12-31');
  await page.getByRole('button', { name: 'Programar', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Elige fecha y hora' });
  // The calendar starts on the day an hour from now (tomorrow, late in the evening): `at`, a minute or two
  // away, is then the day before, in the month shown or (on a month's last evening) the one before it.
  if (madridDay(at) !== madridDay(new Date(Date.now() + 3_600_000))) {
    const day = madrid({ day: 'numeric', month: 'long', year: 'numeric' }).format(at);
    const button = dialog.getByRole('button', { name: new RegExp(`^[^,]+, ${day}(,|$)`) });
    // The calendar draws after the dialog: look for the day once its days are there.
    await expect(dialog.getByRole('button', { name: /^[^,]+, \d+ de \p{L}+ de \d{4}/u }).first()).toBeVisible();
    if (!(await button.isVisible())) await dialog.getByRole('button', { name: 'Mes anterior' }).click();
    await button.click();
  }
  const [hour, minute] = madridTime(at).split(':');
  await dialog.getByLabel(/^Hora/).fill(String(Number(hour)));
  await dialog.getByLabel(/^Minutos/).fill(String(Number(minute)));
  if (repeat) {
    await dialog.getByRole('switch', { name: 'Repetir' }).click();
    await expect(dialog.getByLabel(/^Cada/)).toHaveValue('1');
    await expect(dialog.getByLabel('Intervalo')).toHaveValue('days');
  }
  await dialog.getByRole('button', { name: 'Programar tarea' }).click();
  await expect(page.getByText(`Robot programado para el ${madridDay(at)} ${madridTime(at)}`)).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('scheduled on this PC, the autopilot runs a one-off and a daily robot at their minute; the web shows them read-only', async ({ browser, baseURL }) => {
  test.setTimeout(330_000);
  // An agent of this test's own (same PC, own data), so the suite's agent and its link are left alone.
  const agent = startProcess('node', ['--import', 'tsx', 'main/agent.ts'], {
    ...(JSON.parse(process.env.E2E_AGENT_ENV ?? '{}') as Record<string, string>),
    AGENT_PORT: '0',
    AGENT_TOKEN: 'autopilot-test-agent-token',
    AUTOASESOR_AGENT_DATA: join(process.env.E2E_DATA_DIR ?? '', 'agent-autopilot'),
  });
  try {
    const bridge = await agentBridgeOf(agent, 'the autopilot agent');
    const advisor: NewUser = newUser();
    const desktop = await embeddedContext(browser, baseURL ?? '', bridge);
    const page = await desktop.newPage();
    await signUp(page, advisor);

    // The next whole minute at least 70 s away: time to schedule both and for the autopilot to pull them (every 20 s).
    const at = new Date(Math.ceil((Date.now() + 70_000) / 60_000) * 60_000);
    await scheduleFromLauncher(page, at, false);
    await scheduleFromLauncher(page, at, true);

    // The desktop panel: both for today, at their time; the daily one says so.
    await page.goto('/flows');
    await page.getByRole('button', { name: /^Piloto automático/ }).click();
    const panel = page.getByRole('dialog', { name: 'Piloto automático' });
    await expect(panel.getByRole('heading', { name: 'Control de aplicaciones' })).toBeVisible();
    // Just before midnight in Madrid the minute falls on tomorrow, whose group is titled with its date.
    const group = madridDayKey(at) === madridDayKey(new Date()) ? TODAY_GROUP_TITLE : formatMadridDate(at);
    const today = panel.getByRole('region', { name: group });
    const rows = today.getByRole('listitem').filter({ hasText: 'Descargar justificantes' });
    await expect(rows).toHaveCount(2, { timeout: 30_000 });
    const daily = rows.filter({ hasText: REPEAT_TEXT });
    const oneOff = rows.filter({ hasNotText: REPEAT_TEXT });
    await expect(daily).toContainText(madridTime(at));
    await expect(oneOff).toContainText(madridTime(at));
    await expect(panel.getByRole('button', { name: 'Eliminar Descargar justificantes' })).toHaveCount(2);

    // At their minute the autopilot launches each slot on this PC, one after the other.
    await expect.poll(() => runsOf(advisor.email, FLOW).filter((run) => run.state === 'finished').length, { timeout: 200_000, intervals: [1000] }).toBe(2);
    const runs = runsOf(advisor.email, FLOW);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run).toMatchObject({ state: 'finished', result: 'Success', launch_status: 200, remote: 1, cost: 6 });
      expect(chargesOf(run.id)).toBe(1);
    }
    // One run per slot: two schedules, each its run, under the slot's key.
    const slots = runsOf(advisor.email, FLOW);
    expect(new Set(slots.map((run) => run.schedule_id)).size).toBe(2);
    for (const run of slots) expect(run.idempotency_key).toBe(`${run.schedule_id}:${at.toISOString()}`);

    // The one-off is done (its check) or gone; the daily one waits for tomorrow at the same time.
    const tomorrow = nextRunDate(at, 1, 'days', at);
    const nextDay = panel.getByRole('region', { name: `Robots del ${madridDay(tomorrow)}` });
    await expect(nextDay.getByRole('listitem').filter({ hasText: REPEAT_TEXT })).toContainText(madridTime(tomorrow), { timeout: 15_000 });
    await expect(today.getByRole('listitem').filter({ hasText: REPEAT_TEXT })).toHaveCount(0);
    await expect
      .poll(async () => {
        const left = today.getByRole('listitem').filter({ hasText: 'Descargar justificantes' });
        if ((await left.count()) === 0) return 'gone';
        return (await left.getByRole('img', { name: 'Hecho' }).count()) === 1 ? 'done' : 'waiting';
      })
      .toMatch(/^(gone|done)$/);
    await panel.getByRole('button', { name: 'Cerrar' }).click();
    await expect(panel).toBeHidden();

    // The history: both as remote launches, finished, with the robot's log.
    await page.goto('/flows');
    const history = page.getByRole('table', { name: 'Historial de robots' });
    const historyRows = history.getByRole('row').filter({ hasText: 'Descargar justificantes' });
    await expect(historyRows).toHaveCount(2);
    for (const row of await historyRows.all()) {
      await expect(row).toContainText('Lanzamiento remoto');
      await expect(row).toContainText('Finalizado');
    }
    await historyRows.first().getByRole('button', { name: 'Mostrar detalle' }).click();
    const log = page.getByRole('list', { name: 'Registro' });
    await expect(log).toContainText('Abriendo el portal');
    await expect(log).toContainText(ELENA.nif);
    await desktop.close();

    // The same advisor on the web: read-only, their daily robot with its runs.
    const web = await browser.newContext({ baseURL });
    const webPage = await web.newPage();
    await webPage.goto('/auth');
    await signIn(webPage, advisor);
    await webPage.waitForURL((url) => !url.pathname.startsWith('/auth'));
    await expect(webPage.getByRole('button', { name: /^Piloto automático/ })).toHaveCount(0);
    await webPage.getByRole('button', { name: /^Robots programados/ }).click();
    const webPanel = webPage.getByRole('dialog', { name: 'Robots programados' });
    const webDay = webPanel.getByRole('region', { name: `Robots del ${madridDay(tomorrow)}` });
    await expect(webDay).toContainText('Descargar justificantes');
    await expect(webDay).toContainText(REPEAT_TEXT);
    await expect(webDay).toContainText(madridTime(tomorrow));
    await expect(webPanel.getByRole('list', { name: 'Últimas ejecuciones de Descargar justificantes' })).toContainText('Finalizado');
    await expect(webPanel.getByText('Control de aplicaciones')).toHaveCount(0);
    await expect(webPanel.getByRole('button', { name: /^Eliminar/ })).toHaveCount(0);
    await expect(webPanel.getByRole('switch')).toHaveCount(0);
    await web.close();
  } finally {
    agent.child.kill('SIGKILL');
  }
});
