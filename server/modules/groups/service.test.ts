import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import type { Database } from '../../db/schema.ts';
import { createGroup, findGroup, updateGroupConfig } from './service.ts';

let dir: string;
let db: Kysely<Database>;
const now = new Date('2025-02-01T00:00:00Z');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'autoasesor-groups-'));
  db = connectDatabase({ kind: 'sqlite', file: join(dir, 'groups.sqlite') });
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

describe('groups', () => {
  it('starts with no allowed or hidden routes', async () => {
    const group = await createGroup(db, 'Asesoría Norte', now);
    expect(await findGroup(db, group.id)).toEqual({ id: group.id, name: 'Asesoría Norte', config: { allowed_routes: [], hidden_routes: [] } });
  });

  it('updates only the config keys given', async () => {
    const group = await createGroup(db, 'Gestoría Sur', now, { allowed_routes: ['/documanager'], hidden_routes: [], company_name: 'Sur SL' });
    const updated = await updateGroupConfig(db, group.id, { defaultRoute: '/fie', hidden_routes: ['/payments'] });
    expect(updated?.config).toEqual({ allowed_routes: ['/documanager'], hidden_routes: ['/payments'], company_name: 'Sur SL', defaultRoute: '/fie' });
    expect((await findGroup(db, group.id))?.config).toEqual(updated?.config);
    expect(await updateGroupConfig(db, 'no-existe', { defaultRoute: '/home' })).toBeNull();
  });
});
