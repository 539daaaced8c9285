import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import { CookieJar, registerUser } from '../../test/harness.ts';
import { twoServersOnPostgres } from '../../test/two-servers.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch } from './test-support.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * Two server processes on one PostgreSQL database share the runs through pg-boss: whichever has a
 * free slot takes the next one, and every run is executed exactly once, wherever it was launched.
 */
describe.skipIf(!url)('runs shared by two servers on one PostgreSQL database (TEST_DATABASE_URL)', () => {
  const shared = twoServersOnPostgres(url ?? '', 'autoasesor_runs', TEST_FLOWS_CONFIG);

  it('executes each of 6 runs launched on either server exactly once, and charges each once', async () => {
    const [first, second] = shared.servers();
    const onFirst = await registerUser(first, 'compartido@asesoria.es');
    const onSecond = new CookieJar(second);
    for (const [cookie, value] of onFirst.cookies) onSecond.cookies.set(cookie, value);

    const jars = [onFirst, onSecond, onFirst, onSecond, onFirst, onSecond];
    const launched = await Promise.all(jars.map(async (jar) => (await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse));
    // Each state is readable from either server.
    const finished = await Promise.all(launched.map((run, index) => finishedState(jars[(index + 1) % 2] as CookieJar, run.executionToken, 60_000)));
    expect(finished.map((run) => run.output?.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const db = connectDatabase(shared.database());
    try {
      const starts = await db.selectFrom('flow_run_logs').select(['run_id', (eb) => eb.fn.countAll().as('n')]).where('text', '=', 'Empiezo en modo ok').groupBy('run_id').execute();
      expect(starts).toHaveLength(6);
      expect(starts.every((row) => Number(row.n) === 1)).toBe(true);
      const ledger = await db.selectFrom('credit_ledger').select('run_id').execute();
      expect(new Set(ledger.map((row) => row.run_id))).toEqual(new Set(launched.map((run) => run.runId)));
      const subscription = await db.selectFrom('subscriptions').select('used_slans').executeTakeFirstOrThrow();
      expect(Number(subscription.used_slans)).toBe(12);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

/**
 * A run whose job was lost (its process died between the run's insert and its enqueue) is sent to the
 * queue again once it has waited resendWaitingAfterMs, by whichever server passes first, and executed once.
 */
describe.skipIf(!url)('a waiting run whose job was lost, on PostgreSQL (TEST_DATABASE_URL)', () => {
  const shared = twoServersOnPostgres(url ?? '', 'autoasesor_lostjob', { ...TEST_FLOWS_CONFIG, runs: { ...TEST_FLOWS_CONFIG.runs, resendWaitingAfterMs: 1_000 } });

  it('is queued again and executed exactly once', async () => {
    const [first] = shared.servers();
    const jar = await registerUser(first, 'perdido@asesoria.es');
    const done = await finishedState(jar, ((await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse).executionToken, 60_000);
    expect(done.output?.status).toBe(200);

    const db = connectDatabase(shared.database());
    try {
      // The same launch written again as a process that died before its enqueue would leave it: queued, no job.
      const original = await db.selectFrom('flow_runs').selectAll().where('id', '=', done.runId).executeTakeFirstOrThrow();
      const lostId = randomUUID();
      await db
        .insertInto('flow_runs')
        .values({
          ...original,
          id: lostId,
          execution_token: randomUUID(),
          idempotency_key: randomUUID(),
          state: 'queued',
          result: null,
          launch_status: null,
          message: null,
          summary: null,
          cost: 0,
          usage_units: 0,
          successful_iterations: 0,
          lease_owner: null,
          lease_until: null,
          started_at: null,
          finished_at: null,
          created_at: new Date(Date.now() - 5_000).toISOString(),
        })
        .execute();

      // A process starting now finds it waiting and queues it again at boot (pg-boss refused the insert
      // before it had started: the restarted process of `npm run scaleout` never came up).
      await shared.startAnother();

      const deadline = Date.now() + 30_000;
      let lost = await db.selectFrom('flow_runs').select(['state', 'launch_status']).where('id', '=', lostId).executeTakeFirstOrThrow();
      while (lost.state !== 'finished' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        lost = await db.selectFrom('flow_runs').select(['state', 'launch_status']).where('id', '=', lostId).executeTakeFirstOrThrow();
      }
      expect(lost).toEqual({ state: 'finished', launch_status: 200 });
      const starts = await db.selectFrom('flow_run_logs').select('run_id').where('text', '=', 'Empiezo en modo ok').where('run_id', '=', lostId).execute();
      expect(starts).toHaveLength(1);
      const charges = await db.selectFrom('credit_ledger').select('run_id').where('run_id', '=', lostId).execute();
      expect(charges).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
