import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { insertRun, memberOf } from '../flowlogs/fixtures.ts';
import { ledgerPage } from './ledger.ts';

/**
 * The ledger's cursor across entries charged in the same instant (a schedule firing for several
 * robots at once): page after page of two, every entry once, newest first and then by id, on both
 * databases. The cursor's condition was rewritten so the index can start a page at it.
 */
let server: TestServer;
let db: Kysely<Database>;
let groupId: string;
const SAME_INSTANT = '2026-11-20T09:00:00.000Z';
const period = { from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z' };

beforeAll(async () => {
  server = await startTestServer();
  await registerUser(server.app, 'empates@asesoria.es');
  db = connectDatabase(server.database);
  const member = await memberOf(db, 'empates@asesoria.es');
  groupId = member.groupId;
  // The last is after the period: no page of it may show it.
  const times = [SAME_INSTANT, SAME_INSTANT, SAME_INSTANT, SAME_INSTANT, SAME_INSTANT, '2026-11-21T09:00:00.000Z', '2026-11-19T09:00:00.000Z', '2026-12-05T09:00:00.000Z'];
  for (const [index, at] of times.entries()) {
    const runId = await insertRun(db, { ...member, flowId: 'validar-identificadores', createdAt: at });
    await db.insertInto('credit_ledger').values({ id: `cargo-${index}`, group_id: groupId, run_id: runId, usage_units: 1, usage_ratio: 1, amount: 1, created_at: at }).execute();
  }
}, 60_000);

afterAll(async () => {
  await db.destroy();
  await server.close();
});

describe('ledgerPage', () => {
  it('pages through entries of the same instant two at a time, each once, newest first then by id', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ledgerPage(db, groupId, period, cursor, 2);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((entry) => entry.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(['cargo-5', 'cargo-4', 'cargo-3', 'cargo-2', 'cargo-1', 'cargo-0', 'cargo-6']);
  });

  it("a cursor written by hand past the period's end shows nothing after it", async () => {
    const cursor = Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', 'zzz'])).toString('base64url');
    const page = await ledgerPage(db, groupId, period, cursor, 20);
    expect(page.items.map((entry) => entry.id)).toEqual(['cargo-5', 'cargo-4', 'cargo-3', 'cargo-2', 'cargo-1', 'cargo-0', 'cargo-6']);
  });
});
