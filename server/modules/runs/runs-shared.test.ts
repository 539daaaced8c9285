import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { buildApp } from '../../app.ts';
import { connectDatabase } from '../../db/connect.ts';
import { CookieJar, registerUser } from '../../test/harness.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch } from './test-support.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * Two server processes on one PostgreSQL database share the runs through pg-boss: whichever has a
 * free slot takes the next one, and every run is executed exactly once, wherever it was launched.
 */
describe.skipIf(!url)('runs shared by two servers on one PostgreSQL database (TEST_DATABASE_URL)', () => {
  const name = `autoasesor_runs_${randomUUID().replaceAll('-', '')}`;
  let admin: pg.Client;
  let database: { kind: 'postgres'; url: string };
  let storageDir: string;
  let servers: FastifyInstance[] = [];
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const scoped = new URL(url ?? '');
    scoped.pathname = `/${name}`;
    database = { kind: 'postgres', url: scoped.toString() };
    // Several processes need one storage folder (a shared volume in production).
    storageDir = await mkdtemp(join(tmpdir(), 'autoasesor-runs-shared-'));
    const build = () => buildApp({ database, storageDir, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], ...TEST_FLOWS_CONFIG });
    const first = await build(); // migrates, installs pg-boss
    servers = [first, await build()];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('executes each of 6 runs launched on either server exactly once, and charges each once', async () => {
    const [first, second] = servers as [FastifyInstance, FastifyInstance];
    const onFirst = await registerUser(first, 'compartido@asesoria.es');
    const onSecond = new CookieJar(second);
    for (const [cookie, value] of onFirst.cookies) onSecond.cookies.set(cookie, value);

    const jars = [onFirst, onSecond, onFirst, onSecond, onFirst, onSecond];
    const launched = await Promise.all(jars.map(async (jar) => (await launch(jar, TEST_FLOW_ID, { mode: 'ok' })).json() as ExecutionStateResponse));
    // Each state is readable from either server.
    const finished = await Promise.all(launched.map((run, index) => finishedState(jars[(index + 1) % 2] as CookieJar, run.executionToken, 60_000)));
    expect(finished.map((run) => run.output?.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const db = connectDatabase(database);
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
