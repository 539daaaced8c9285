import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { resolveAuthLimits } from './limits.ts';
import { purgeAuthData } from './purge.ts';

// Reads the sealed column directly from the harness's SQLite file, so this suite stays SQLite-only.
let now: Date;
let server: TestServer;
beforeEach(async () => {
  now = new Date('2025-06-02T08:00:00Z');
  server = await startTestServer({ now: () => now });
});
afterEach(async () => server.close());

it('wipes a sealed successor once the grace is over', async () => {
  const db = connectDatabase({ kind: 'sqlite', file: join(server.dir, 'test.sqlite') });
  try {
    const jar = await registerUser(server.app, 'sello@asesoria.es');
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    const sealed = () => db.selectFrom('sessions').select('successor_sealed').where('successor_sealed', 'is not', null).execute();
    expect(await sealed()).toHaveLength(1);
    now = new Date('2025-06-02T08:00:11Z');
    expect(await purgeAuthData(db, now, resolveAuthLimits({ max: 10, timeWindowMs: 60_000 }))).toMatchObject({ sessions: 0 });
    expect(await sealed()).toHaveLength(0);
  } finally {
    await db.destroy();
  }
});
