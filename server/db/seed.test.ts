import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { verifyPassword } from '../modules/auth/passwords.ts';
import { connectDatabase } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';
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
    expect(await seedDemoAccount(db, now, 'production')).toBe(false);
    expect(await seedDemoAccount(db, now, 'development')).toBe(true);
    expect(await seedDemoAccount(db, now, 'development')).toBe(false);
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
    expect(subscription).toEqual({ name: 'Profesional', status: 'active', used_slans: 1250, current_period_end: '2025-03-03T00:00:00.000Z' });
  });
});
