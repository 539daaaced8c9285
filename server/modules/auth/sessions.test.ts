import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { seedCatalog } from '../../db/seed.ts';
import type { Database } from '../../db/schema.ts';
import { registerAccount } from '../users/service.ts';
import { ACCESS_TTL_MS, createSession, findActiveSession, revokeUserSessions } from './sessions.ts';

let dir: string;
let db: Kysely<Database>;
const now = new Date('2025-02-01T10:00:00Z');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'autoasesor-sessions-'));
  db = connectDatabase({ kind: 'sqlite', file: join(dir, 'sessions.sqlite') });
  await migrateToLatest(db);
  await seedCatalog(db, now); // the trial plan a new account starts on
});
afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

/** The same database, counting the queries sent through it. */
function counting(database: Kysely<Database>): { db: Kysely<Database>; queries: () => number } {
  let queries = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      queries++;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: database.withPlugin(plugin), queries: () => queries };
}

async function signedInUser() {
  const userId = await registerAccount(db, { name: 'Ana', email: 'ana@example.com', password: 'Secreta-Nube7', language: 'es' }, now);
  const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('id', '=', userId).executeTakeFirstOrThrow();
  const tokens = await createSession(db, userId, now);
  return { userId, groupId, accessToken: tokens.accessToken };
}

describe('findActiveSession', () => {
  it('gives the user and their group in one query (every group-scoped request starts here)', async () => {
    const { userId, groupId, accessToken } = await signedInUser();
    const counted = counting(db);
    const session = await findActiveSession(counted.db, accessToken, now);
    expect(session).toMatchObject({ userId, groupId });
    expect(counted.queries()).toBe(1);
  });

  it('finds nothing for an unknown, expired or revoked token', async () => {
    const { userId, accessToken } = await signedInUser();
    expect(await findActiveSession(db, `${accessToken}x`, now)).toBeNull();
    expect(await findActiveSession(db, accessToken, new Date(now.getTime() + ACCESS_TTL_MS))).toBeNull();
    await revokeUserSessions(db, userId, now);
    expect(await findActiveSession(db, accessToken, now)).toBeNull();
  });
});
