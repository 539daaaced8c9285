import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { verifyPassword } from '../modules/auth/passwords.ts';
import { connectDatabase } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';
import { billingPeriodStart } from '../modules/flowlogs/stats.ts';
import { DEMO_FIE_A3_REFUSAL } from './demo-fie.ts';
import { DEMO_ACCOUNT, seedCatalog, seedDemoAccount } from './seed.ts';

let dir: string;
let db: Kysely<Database>;
const now = new Date('2025-02-01T00:00:00Z');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'autoasesor-seed-'));
  db = connectDatabase({ kind: 'sqlite', file: join(dir, 'seed.sqlite') });
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe('seed', () => {
  it('is idempotent: plans and notes once, migrations re-run harmlessly', async () => {
    await seedCatalog(db, now);
    await seedCatalog(db, now);
    await migrateToLatest(db);
    const plans = await db.selectFrom('plans').select(['ref', 'name', 'usage_limit', 'trial_days']).orderBy('usage_limit').execute();
    expect(plans).toEqual([
      { ref: 'trial', name: 'Prueba', usage_limit: 500, trial_days: 14 },
      { ref: 'basic', name: 'Básico', usage_limit: 2000, trial_days: null },
      { ref: 'pro', name: 'Profesional', usage_limit: 10000, trial_days: null },
    ]);
    expect(await db.selectFrom('release_notes').select('id').execute()).toHaveLength(2);
  });

  it('creates the demo account once, on an empty database, outside production', async () => {
    await seedCatalog(db, now);
    expect(await seedDemoAccount(db, now, 'production')).toBeNull();
    expect(await seedDemoAccount(db, now, 'development')).not.toBeNull();
    expect(await seedDemoAccount(db, now, 'development')).toBeNull();
    const user = await db
      .selectFrom('users')
      .innerJoin('groups', 'groups.id', 'users.group_id')
      .select(['users.email', 'users.name', 'users.password_hash', 'groups.name as groupName'])
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: DEMO_ACCOUNT.email, name: 'Laura Gómez', groupName: 'Asesoría Demo' });
    expect(await verifyPassword(user.password_hash, 'Demo1234!')).toBe(true);
    const subscription = await db
      .selectFrom('subscriptions')
      .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
      .select(['plans.name', 'subscriptions.status', 'subscriptions.used_slans', 'subscriptions.current_period_end'])
      .executeTakeFirstOrThrow();
    expect(subscription).toEqual({ name: 'Profesional', status: 'active', used_slans: 1250, current_period_end: '2025-02-08T00:00:00.000Z' });
  });

  it('gives the demo three SILTRA files of the last weeks in /fie, with every A3 state', async () => {
    await seedCatalog(db, now);
    await seedDemoAccount(db, now, 'development');
    const documents = await db.selectFrom('fie_documents').select(['file_name', 'date', 'entry_count', 'source', 'importing']).orderBy('date').execute();
    expect(documents).toEqual([
      { file_name: 'FIE_20250116.txt', date: '2025-01-16', entry_count: 14, source: 'siltra', importing: 0 },
      { file_name: 'FIE_20250123.txt', date: '2025-01-23', entry_count: 22, source: 'siltra', importing: 0 },
      { file_name: 'FIE_20250130.txt', date: '2025-01-30', entry_count: 9, source: 'siltra', importing: 0 },
    ]);
    const states = await db.selectFrom('fie_entries').select(['a3_state', 'a3_error']).execute();
    const count = (state: string) => states.filter((entry) => entry.a3_state === state).length;
    expect([count('synced'), count('error'), count('pending') + count('excluded')]).toEqual([13, 1, 31]);
    expect(states.find((entry) => entry.a3_state === 'error')?.a3_error).toBe(DEMO_FIE_A3_REFUSAL);
  });

  it('gives the demo three weeks of finished runs whose charges are exactly its used credits, all in this billing period', async () => {
    await seedCatalog(db, now);
    await seedDemoAccount(db, now, 'development');
    const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', DEMO_ACCOUNT.email).executeTakeFirstOrThrow();
    const runs = await db.selectFrom('flow_runs').selectAll().where('group_id', '=', groupId).orderBy('created_at').execute();
    const ledger = await db.selectFrom('credit_ledger').selectAll().where('group_id', '=', groupId).execute();
    const { used_slans: used } = await db.selectFrom('subscriptions').select('used_slans').where('group_id', '=', groupId).executeTakeFirstOrThrow();

    expect(used).toBe(1250);
    expect(ledger.reduce((total, row) => total + row.amount, 0)).toBe(1250);
    expect(runs.reduce((total, run) => total + run.cost, 0)).toBe(1250);
    // One ledger row per charged run, for exactly what the run says it cost.
    const charged = runs.filter((run) => run.cost > 0);
    expect(ledger.map((row) => [row.run_id, row.amount]).sort()).toEqual(charged.map((run) => [run.id, run.cost]).sort());
    expect(runs.every((run) => run.cost === run.usage_units * run.usage_ratio)).toBe(true);

    // A realistic mix: every result the robots give, manual and scheduled. The runs that did not succeed
    // have their lines; the successful ones get theirs from their robots, with their files (demo-files.ts).
    const results = new Set(runs.map((run) => run.result));
    expect(results).toEqual(new Set(['Fail', 'FlowAborted', 'Success', 'WrongInput']));
    expect(runs.filter((run) => run.scheduled === 1).length).toBeGreaterThan(5);
    expect(runs.filter((run) => run.scheduled === 0).length).toBeGreaterThan(5);
    expect(new Set(runs.map((run) => run.flow_id))).toEqual(new Set(['validar-identificadores', 'fie-incidencias-a3', 'comprobar-altas-red']));
    const lines = await db.selectFrom('flow_run_logs').select(['run_id']).execute();
    const hasLines = (run: (typeof runs)[number]) => lines.some((line) => line.run_id === run.id);
    expect(runs.every((run) => hasLines(run) === (run.result !== 'Success'))).toBe(true);

    // All finished, in the past, and since the period the balance counts began.
    const periodStart = (await billingPeriodStart(db, groupId, now)).toISOString();
    expect(runs.every((run) => run.state === 'finished' && run.finished_at !== null && run.finished_at < now.toISOString())).toBe(true);
    expect(runs[0]?.created_at.localeCompare(periodStart)).toBe(1);
    expect(ledger.every((row) => row.created_at >= periodStart)).toBe(true);
    // The history's counters agree with the rows.
    const counts = await db.selectFrom('flow_run_counts').select(['scheduled', 'runs']).where('group_id', '=', groupId).orderBy('scheduled').execute();
    expect(counts).toEqual([
      { scheduled: 0, runs: runs.filter((run) => run.scheduled === 0).length },
      { scheduled: 1, runs: runs.filter((run) => run.scheduled === 1).length },
    ]);
  });
});
