import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer | undefined;
afterEach(async () => server?.close());

const login = (s: TestServer, email: string, password: string, remoteAddress = '127.0.0.1') =>
  s.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

describe('login limits held in the database', () => {
  it('cannot be flushed: 5,100 junk logins from the same IP do not give the attacker fresh guesses', async () => {
    let now = new Date('2025-03-01T10:00:00Z');
    server = await startTestServer({ now: () => now, loginRateLimit: { max: 3, timeWindowMs: 10 * 60_000 } });
    await registerUser(server.app, 'victima@asesoria.es');
    for (let i = 0; i < 3; i++) expect((await login(server, 'victima@asesoria.es', `Mala${i}234!`)).statusCode).toBe(401);
    expect((await login(server, 'victima@asesoria.es', 'Mala9234!')).statusCode).toBe(429);

    // The in-memory LRU kept 5,000 keys per route: this many junk keys evicted the victim's.
    for (let batch = 0; batch < 51; batch++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => login(server!, `basura${batch * 100 + i}@x.es`, 'Basura123!')));
    }
    now = new Date('2025-03-01T10:02:00Z'); // past the per-IP minute, still inside the victim's window
    const retry = await login(server, 'victima@asesoria.es', PASSWORD);
    expect(retry.statusCode).toBe(429);
    expect(retry.json().message).toBe('Demasiados intentos. Vuelve a intentarlo dentro de 8 minutos.');
    expect(Number(retry.headers['retry-after'])).toBe(480);
  }, 60_000);

  it('caps one IP across emails (password spraying) while other IPs still sign in', async () => {
    server = await startTestServer({ authLimits: { perIp: { windowMs: 60_000, freeHits: 5, stepMs: 0, lockAt: 5, lockMs: 60_000 } } });
    await registerUser(server.app, 'real@asesoria.es');
    const sprayed = await Promise.all(Array.from({ length: 12 }, (_, i) => login(server!, `u${i}@asesoria.es`, 'Verano2024!', '203.0.113.9')));
    const statuses = sprayed.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    expect((await login(server, 'real@asesoria.es', PASSWORD, '203.0.113.9')).statusCode).toBe(429);
    expect((await login(server, 'real@asesoria.es', PASSWORD, '198.51.100.7')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    server = await startTestServer({ authLimits: { perIp: { windowMs: 60_000, freeHits: 2, stepMs: 0, lockAt: 2, lockMs: 60_000 } } });
    expect((await login(server, 'a@asesoria.es', 'Verano2024!', '2001:db8:1:2::1')).statusCode).toBe(401);
    expect((await login(server, 'b@asesoria.es', 'Verano2024!', '2001:db8:1:2:ffff::9')).statusCode).toBe(401);
    expect((await login(server, 'c@asesoria.es', 'Verano2024!', '2001:db8:1:2::abcd')).statusCode).toBe(429);
    expect((await login(server, 'c@asesoria.es', 'Verano2024!', '2001:db8:1:3::1')).statusCode).toBe(401);
  });

  it('slows down, then locks an account guessed from many IPs, tells the owner once, and unlocks after the period', async () => {
    let now = new Date('2025-03-01T10:00:00Z');
    server = await startTestServer({
      now: () => now,
      authLimits: { perAccount: { windowMs: 60 * 60_000, freeHits: 2, stepMs: 5_000, lockAt: 4, lockMs: 15 * 60_000 } },
    });
    await registerUser(server.app, 'dueno@asesoria.es');
    const guess = (n: number, password = `Mala${n}234!`) => login(server!, 'dueno@asesoria.es', password, `198.51.100.${n}`);

    expect((await guess(1)).statusCode).toBe(401);
    expect((await guess(2)).statusCode).toBe(401);
    expect((await guess(3)).statusCode).toBe(401); // third failure: the next one waits 5 s
    const slowed = await guess(4);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toBe('Demasiados intentos fallidos con esta cuenta. Por seguridad, vuelve a intentarlo dentro de 5 segundos (a las 11:00).');

    now = new Date('2025-03-01T10:00:05Z');
    expect((await guess(4)).statusCode).toBe(401); // the fourth failure locks the account
    const mails = () => server!.logLines().filter((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'account_locked');
    expect(mails()).toHaveLength(1);
    expect(mails()[0]?.mail).toEqual({ to: 'dueno@asesoria.es', purpose: 'account_locked' });

    // Even the right password waits: the lock is on the account, whatever the IP.
    const locked = await guess(5, PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe('Demasiados intentos fallidos con esta cuenta. Por seguridad, vuelve a intentarlo dentro de 15 minutos (a las 11:15).');
    expect(locked.headers['retry-after']).toBe('900');
    expect(mails()).toHaveLength(1);

    now = new Date('2025-03-01T10:15:06Z');
    expect((await guess(6, PASSWORD)).statusCode).toBe(200);
    // The success forgot the failures: a typo now is an ordinary 401.
    expect((await guess(7)).statusCode).toBe(401);
    expect((await guess(8)).statusCode).toBe(401);
  });

  it('answers unknown emails exactly like known ones, so the limits tell nothing about accounts', async () => {
    server = await startTestServer({ authLimits: { perAccount: { windowMs: 60 * 60_000, freeHits: 1, stepMs: 60_000, lockAt: 3, lockMs: 60_000 } } });
    await registerUser(server.app, 'existe@asesoria.es');
    const bodies = [];
    for (const email of ['existe@asesoria.es', 'noexiste@asesoria.es']) {
      const first = await login(server, email, 'Mala1234!', '198.51.100.1');
      const second = await login(server, email, 'Mala1234!', '198.51.100.2');
      const third = await login(server, email, 'Mala1234!', '198.51.100.3');
      bodies.push([first.statusCode, second.statusCode, third.statusCode, third.json().message]);
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]?.slice(0, 3)).toEqual([401, 401, 429]);
  });
});
