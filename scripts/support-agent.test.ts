import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connectDatabase } from '../server/db/connect.ts';
import type { Database } from '../server/db/schema.ts';
import { registerUser, startTestServer, type TestServer } from '../server/test/harness.ts';
import { setSupportAgent } from './support-agent.ts';

let server: TestServer;
let db: Kysely<Database>;
beforeEach(async () => {
  server = await startTestServer();
  db = connectDatabase(server.database);
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

it('grants and revokes the support role of an existing account, by its email in any case', async () => {
  await registerUser(server.app, 'lucia@autoasesor.es', 'Lucía');
  const role = async () => Number((await db.selectFrom('users').select('support_agent').where('email', '=', 'lucia@autoasesor.es').executeTakeFirstOrThrow()).support_agent);
  expect(await setSupportAgent(db, ' Lucia@AutoAsesor.es ', true)).toBe('granted');
  expect(await role()).toBe(1);
  expect(await setSupportAgent(db, 'lucia@autoasesor.es', true)).toBe('unchanged');
  expect(await setSupportAgent(db, 'lucia@autoasesor.es', false)).toBe('revoked');
  expect(await role()).toBe(0);
  expect(await setSupportAgent(db, 'nadie@autoasesor.es', true)).toBe('no-account');
});
