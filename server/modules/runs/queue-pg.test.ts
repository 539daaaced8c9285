import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabase, withDatabase } from '../../test/test-databases.ts';
import { PgBossRunQueue, RUN_QUEUE_NAME, type QueuedRun } from './queue.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * The pg-boss queue keeps at most one waiting job per run, so sending a run again (a process's start,
 * the half-minute pass over runs waiting for long) never makes it wait twice. A queue with no slots
 * takes nothing, so the jobs stay where the test can count them.
 */
describe.skipIf(!url)('PgBossRunQueue on PostgreSQL (TEST_DATABASE_URL)', () => {
  const name = `autoasesor_queue_${randomUUID().replaceAll('-', '')}`;
  let admin: pg.Client;
  let database: pg.Client;
  let queue: PgBossRunQueue;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    queue = new PgBossRunQueue(withDatabase(url ?? '', name), 0, (error) => {
      throw error;
    });
    await queue.start(async () => undefined);
    database = new pg.Client({ connectionString: withDatabase(url ?? '', name) });
    await database.connect();
  });
  afterAll(async () => {
    await database?.end();
    await queue?.close();
    if (admin) {
      await dropDatabase(admin, name);
      await admin.end();
    }
  });

  const waitingJobs = async (runId: string) =>
    Number((await database.query<{ n: string }>("select count(*) as n from pgboss.job where name = $1 and state = 'created' and data->>'runId' = $2", [RUN_QUEUE_NAME, runId])).rows[0]?.n);

  it('queues a run once however often it is sent again, and sends the runs that had no job', async () => {
    const launched: QueuedRun = { runId: randomUUID(), groupId: randomUUID(), rank: 3 };
    const lost: QueuedRun = { runId: randomUUID(), groupId: randomUUID(), rank: 1 };
    await queue.enqueue(launched);
    await queue.enqueue(launched);
    expect(await waitingJobs(launched.runId)).toBe(1);
    expect(await waitingJobs(lost.runId)).toBe(0);

    await queue.resend([launched, lost]);
    await queue.resend([lost, launched]);
    expect(await waitingJobs(launched.runId)).toBe(1);
    expect(await waitingJobs(lost.runId)).toBe(1);
    // The fair rank still orders the jobs: the lower rank has the higher priority.
    const { rows } = await database.query<{ run: string; priority: number }>("select data->>'runId' as run, priority from pgboss.job where name = $1 and state = 'created' order by priority desc", [RUN_QUEUE_NAME]);
    expect(rows.map((row) => row.run)).toEqual([lost.runId, launched.runId]);
  });

  it("puts a run sent again before the waiting jobs of its rank, and behind every lower rank", async () => {
    const firm = randomUUID();
    const rankTwo = (label: string): QueuedRun & { label: string } => ({ runId: randomUUID(), groupId: firm, rank: 2, label });
    const first = rankTwo('first');
    const second = rankTwo('second');
    const dropped = rankTwo('dropped');
    const newcomer = { runId: randomUUID(), groupId: randomUUID(), rank: 1, label: 'newcomer' };
    await queue.enqueue(first);
    await queue.enqueue(second);
    await queue.enqueue(newcomer);
    await queue.resend([dropped]);
    const runs = [first, second, dropped, newcomer];
    // pg-boss's own fetch order.
    const { rows } = await database.query<{ run: string }>("select data->>'runId' as run from pgboss.job where name = $1 and state = 'created' and data->>'runId' = any($2) order by priority desc, created_on, id", [
      RUN_QUEUE_NAME,
      runs.map((run) => run.runId),
    ]);
    expect(rows.map((row) => runs.find((run) => run.runId === row.run)?.label)).toEqual(['newcomer', 'dropped', 'first', 'second']);
  });
});
