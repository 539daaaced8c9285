import { createHash, randomUUID } from 'node:crypto';
import { runsOf, withDatabase } from './database.ts';
import { expect as baseExpect, newUser, signUp, test } from './fixtures.ts';

// The e2e server shares a busy machine: each check may wait longer than the default before it fails.
const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * Issue 21 points 9-11: the run history's robot and date filters live in the address (kept on reload),
 * a run queued for a machine is cancelled from the history (nothing charged), and on a phone the runs
 * are cards with nothing off to the side.
 */

interface SeedRun {
  flowId: string;
  flowName: string;
  createdAt: string;
  finishedAt: string | null;
  state: 'queued' | 'finished';
  result: string | null;
  /** A desktop run queued for this machine (linked, never connected). */
  machine?: { id: string; name: string };
}

/** Runs put straight into the e2e server's database (a machine that never connects keeps its run queued). */
function seedRuns(email: string, runs: SeedRun[]): void {
  withDatabase((db) => {
    const user = db.prepare('select id, group_id from users where email = ?').get(email) as { id: string; group_id: string };
    const insert = db.prepare(`
      insert into flow_runs (id, group_id, user_id, flow_id, flow_name, execution_token, state, result, launch_status, stopped_by_user, scheduled,
        machine_name, machine_id, remote, send_output_to_server, successful_iterations, total_iterations, usage_units, usage_ratio, cost, inputs,
        accept_extra_usage, reserved_cost, created_at, started_at, finished_at)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, 1, 5, 5, ?, 1, ?, '{}', 0, ?, ?, ?, ?)`);
    const count = db.prepare('insert into flow_run_counts (group_id, scheduled, runs) values (?, ?, 1) on conflict (group_id, scheduled) do update set runs = flow_run_counts.runs + 1');
    for (const run of runs) {
      const remote = run.machine ? 1 : 0;
      const finished = run.state === 'finished';
      insert.run(
        randomUUID(), user.group_id, user.id, run.flowId, run.flowName, randomUUID(), run.state, run.result, finished ? 200 : null, remote,
        run.machine?.name ?? null, run.machine?.id ?? null, remote, finished ? 1 : 0, finished ? 1 : 0, finished ? 0 : 1, run.createdAt, finished ? run.createdAt : null, run.finishedAt,
      );
      count.run(user.group_id, remote);
    }
  });
}

test('history: robot and date filters kept in the address across a reload, a queued run cancelled, cards at 390 px', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 800 });
  const user = newUser();
  await signUp(page, user);
  const now = new Date();
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const day = (date: Date) => date.toISOString().slice(0, 10);
  // A PC of the firm that never connects: its run stays queued.
  const link = await page.request.post('/api/machines/link', { data: { machineHashCode: createHash('sha256').update(user.email).digest('hex'), machineName: 'PC Oficina' } });
  expect([200, 201]).toContain(link.status());
  const machine = { id: ((await link.json()) as { machine: { _id: string } }).machine._id, name: 'PC Oficina' };
  seedRuns(user.email, [
    { flowId: 'fie-incidencias-a3', flowName: 'FIE a incidencias A3', createdAt: daysAgo(20).toISOString(), finishedAt: new Date(daysAgo(20).getTime() + 65_000).toISOString(), state: 'finished', result: 'Success' },
    { flowId: 'validar-identificadores', flowName: 'Validar identificadores', createdAt: daysAgo(5).toISOString(), finishedAt: new Date(daysAgo(5).getTime() + 65_000).toISOString(), state: 'finished', result: 'Success' },
    { flowId: 'validar-identificadores', flowName: 'Validar identificadores', createdAt: daysAgo(25).toISOString(), finishedAt: new Date(daysAgo(25).getTime() + 42_000).toISOString(), state: 'finished', result: 'Success' },
    { flowId: 'descargar-justificantes', flowName: 'Descargar justificantes', createdAt: now.toISOString(), finishedAt: null, state: 'queued', result: null, machine },
  ]);

  await page.goto('/flows');
  const history = page.getByRole('region', { name: 'Historial de robots' });
  const rows = history.locator('tbody > tr.ui-table__row');
  await expect(history.getByText('4 ejecuciones')).toBeVisible();
  await expect(history.getByRole('columnheader', { name: 'Duración' })).toBeVisible();

  // Robot, then 'Desde': each written to the address; the page shows what they select.
  await history.getByRole('combobox', { name: 'Robot' }).selectOption({ label: 'Validar identificadores' });
  await expect(page).toHaveURL(/[?&]robot=validar-identificadores/);
  await expect(history.getByText('2 ejecuciones')).toBeVisible();
  await history.getByLabel('Desde').fill(day(daysAgo(10)));
  await expect(page).toHaveURL(new RegExp(`[?&]desde=${day(daysAgo(10))}`));
  await expect(history.getByText('1 ejecución')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Validar identificadores');
  await expect(rows.first()).toContainText('1 min 05 s');

  // A reload keeps the view.
  await page.reload();
  await expect(page).toHaveURL(/[?&]robot=validar-identificadores/);
  await expect(history.getByText('1 ejecución')).toBeVisible();
  await expect(history.getByRole('combobox', { name: 'Robot' })).toHaveValue('validar-identificadores');
  await expect(history.getByLabel('Desde')).toHaveValue(day(daysAgo(10)));
  await expect(rows).toHaveCount(1);

  // The search box: typing is debounced and written to the address too.
  await history.getByRole('button', { name: 'Quitar filtros' }).click();
  await expect(history.getByText('4 ejecuciones')).toBeVisible();
  await history.getByRole('searchbox', { name: 'Buscar por robot' }).fill('justif');
  await expect(page).toHaveURL(/[?&]q=justif/);
  await expect(history.getByText('1 ejecución')).toBeVisible();

  // The queued run (for a machine that is not connected): 'Cancelar', confirmed, ends it unpaid.
  const queued = rows.filter({ hasText: 'Descargar justificantes' });
  await expect(queued).toContainText('En cola');
  await expect(queued).toContainText('—');
  await queued.getByRole('button', { name: 'Cancelar la ejecución de Descargar justificantes' }).click();
  const dialog = page.getByRole('dialog', { name: '¿Cancelar esta ejecución?' });
  await dialog.getByRole('button', { name: 'Cancelar ejecución' }).click();
  await expect(page.getByText('Ejecución cancelada. No se ha cobrado nada.')).toBeVisible();
  await expect(queued).toContainText('Robot detenido');
  await expect(queued.getByRole('button', { name: /Cancelar la ejecución/ })).toHaveCount(0);
  expect(runsOf(user.email, 'descargar-justificantes')[0]).toMatchObject({ state: 'finished', result: 'FlowAborted', launch_status: 202, cost: 0 });

  // A phone: every run a card, every value on screen, nothing to scroll sideways.
  await history.getByRole('button', { name: 'Quitar filtros' }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(history.getByText('4 ejecuciones')).toBeVisible();
  await expect(history.getByRole('columnheader', { name: 'Duración' })).not.toBeInViewport();
  const overflow = await page.evaluate(() => {
    const wrap = document.querySelector('.flows-history .ui-table-wrap') as HTMLElement;
    return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, table: wrap.scrollWidth - wrap.clientWidth };
  });
  expect(overflow).toEqual({ page: 0, table: 0 });
  const card = rows.filter({ hasText: 'FIE a incidencias A3' });
  for (const value of ['1 min 05 s', 'Finalizado', '5 de 5']) {
    const box = await card.getByText(value).boundingBox();
    expect(box, value).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), value).toBeLessThanOrEqual(390);
  }
  // Each value is under its column's name on the card.
  const label = await card.locator('.flows-cell[data-label="Duración"]').evaluate((cell) => getComputedStyle(cell, '::before').content);
  expect(label).toBe('"Duración"');
});
