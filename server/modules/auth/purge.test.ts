import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { resolveAuthLimits } from './guard.ts';
import { purgeAuthData } from './purge.ts';

let now: Date;
let server: TestServer;
let db: Kysely<Database>;
beforeEach(async () => {
  now = new Date('2025-06-02T08:00:00Z');
  server = await startTestServer({ now: () => now });
  db = connectDatabase({ kind: 'sqlite', file: join(server.dir, 'test.sqlite') });
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

const purge = () => purgeAuthData(db, now, resolveAuthLimits({ max: 10, timeWindowMs: 60_000 }));
const login = (email: string, password = PASSWORD) => {
  const jar = new CookieJar(server.app);
  return jar.post('/api/auth/login', { email, password }).then(() => jar);
};

describe('purging auth data', () => {
  it('deletes dead families, spent and expired links and finished counters, but keeps what detects theft', async () => {
    const kept = await registerUser(server.app, 'purga@asesoria.es');
    const loggedOut = await login('purga@asesoria.es');
    const rotating = await login('purga@asesoria.es');
    const stolen = rotating.value('aa_refresh') ?? '';
    expect((await rotating.post('/api/auth/newtoken')).statusCode).toBe(200);
    expect((await loggedOut.post('/api/auth/logout')).statusCode).toBe(200);
    await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'purga@asesoria.es', password: 'Mala1234!' } });
    await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'purga@asesoria.es' } });
    expect(server.countRows('sessions')).toBe(4);
    expect(server.countRows('user_tokens')).toBe(1);

    now = new Date('2025-06-02T08:01:00Z');
    expect(await purge()).toEqual({ sessions: 1, userTokens: 0, throttle: 0 });
    expect(server.countRows('sessions')).toBe(3);
    // The rotated row of a live family stays: replaying it after the grace still logs the family out.
    const replay = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: stolen } });
    expect(replay.json().logoutReason).toBe('Tu sesión se ha cerrado por seguridad. Vuelve a iniciar sesión.');
    expect((await kept.get('/api/users/me')).statusCode).toBe(200);

    now = new Date('2025-06-03T09:00:00Z'); // the link expired, the counters' day is over
    const counts = await purge();
    expect(counts).toMatchObject({ userTokens: 1 });
    expect(counts.throttle).toBeGreaterThan(0);
    expect(server.countRows('user_tokens')).toBe(0);
    expect(server.countRows('auth_throttle')).toBe(0);
    expect(server.countRows('sessions')).toBe(1); // only the first login's live session

    now = new Date('2025-07-03T09:00:00Z'); // past the 30-day refresh expiry
    await purge();
    expect(server.countRows('sessions')).toBe(0);
  });

  it('wipes the sealed successor once the grace is over', async () => {
    const jar = await registerUser(server.app, 'sello@asesoria.es');
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    const sealed = () => db.selectFrom('sessions').select('successor_sealed').where('successor_sealed', 'is not', null).execute();
    expect(await sealed()).toHaveLength(1);
    now = new Date('2025-06-02T08:00:11Z');
    await purge();
    expect(await sealed()).toHaveLength(0);
  });
});
