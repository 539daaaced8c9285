import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let now: Date;
let server: TestServer;
beforeEach(async () => {
  now = new Date('2025-06-02T08:00:00Z');
  // The app's own timer does the purging here, every 50 ms instead of hourly.
  server = await startTestServer({ now: () => now, authLimits: { purgeEveryMs: 50 } });
});
afterEach(async () => server.close());

const login = async (email: string, password = PASSWORD) => {
  const jar = new CookieJar(server.app);
  await jar.post('/api/auth/login', { email, password });
  return jar;
};

describe('purging auth data on the app’s timer', () => {
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

    now = new Date('2025-06-02T08:01:00Z'); // the logged-out family is dead past the grace
    await expect.poll(() => server.countRows('sessions')).toBe(3);
    // The rotated row of a live family stays: replaying it after the grace still logs the family out.
    const replay = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: stolen } });
    expect(replay.json().logoutReason).toBe('Tu sesión se ha cerrado por seguridad. Vuelve a iniciar sesión.');
    expect((await kept.get('/api/users/me')).statusCode).toBe(200);
    expect(server.countRows('user_tokens')).toBe(1);
    expect(server.countRows('auth_throttle')).toBeGreaterThan(0);

    now = new Date('2025-06-03T09:00:00Z'); // the link expired, the counters' day is over
    await expect.poll(() => [server.countRows('user_tokens'), server.countRows('auth_throttle'), server.countRows('sessions')]).toEqual([0, 0, 1]);

    now = new Date('2025-07-03T09:00:00Z'); // past the 30-day refresh expiry of the one live session
    await expect.poll(() => server.countRows('sessions')).toBe(0);
  });
});
