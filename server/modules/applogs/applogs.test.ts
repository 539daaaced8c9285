import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { senderKey } from './service.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

function storedLogs() {
  const db = new Database(join(server.dir, 'test.sqlite'), { readonly: true });
  try {
    return db.prepare('select * from app_logs order by created_at').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

const clientHeaders = { 'x-client-app': 'desktop', 'x-client-version': '1.4.2', 'accept-language': 'en-GB,en;q=0.9' };

describe('POST /api/applogs', () => {
  it('is public and stores the report with the client headers', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/applogs',
      headers: clientHeaders,
      payload: { message: 'TypeError: x is undefined', stack: 'at main.js:1', url: 'http://app.test/home', context: { route: '/home', n: 2 } },
    });
    expect(response.statusCode).toBe(201);
    expect(storedLogs()).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'TypeError: x is undefined',
        stack: 'at main.js:1',
        url: 'http://app.test/home',
        context: JSON.stringify({ route: '/home', n: 2 }),
        client_app: 'desktop',
        client_version: '1.4.2',
        client_language: 'en',
        user_id: null,
      }),
    ]);
  });

  it('records the user when signed in, and ignores an unknown client app', async () => {
    const jar = await registerUser(server.app, 'log@asesoria.es');
    const me = (await jar.get('/api/users/me')).json() as { userData: { uid: string } };
    await jar.request({ method: 'POST', url: '/api/applogs', headers: { 'x-client-app': 'curl' }, payload: { level: 'warn', message: 'lento' } });
    expect(storedLogs()).toEqual([expect.objectContaining({ level: 'warn', user_id: me.userData.uid, client_app: null, client_language: 'es' })]);
  });
});

describe('app-log abuse', () => {
  let guarded: TestServer;
  let clock = new Date('2026-03-02T10:00:00Z');
  const report = (bytes: number) => ({ message: 'Error: fallo', stack: 'x'.repeat(bytes) });
  const send = (payload: unknown, remoteAddress = '203.0.113.5') => guarded.app.inject({ method: 'POST', url: '/api/applogs', remoteAddress, payload: payload as object });

  afterEach(async () => guarded.close());

  it('refuses a ~1 MB report (413 in Spanish), and an oversized context (400); nothing stored', async () => {
    guarded = await startTestServer();
    const huge = await send({ message: 'x', context: { blob: 'x'.repeat(1_000_000) } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'La petición es demasiado grande' });
    const bigContext = await send({ message: 'x', context: { blob: 'x'.repeat(10_000) } });
    expect(bigContext.statusCode).toBe(400);
    expect(bigContext.json().issues).toEqual([{ path: 'context', message: 'El contexto no puede superar 4000 caracteres' }]);
    expect(guarded.countRows('app_logs')).toBe(0);
  });

  it('holds one sender to its byte budget per hour: 429 and nothing stored once over, others unaffected', async () => {
    guarded = await startTestServer({ now: () => clock, appLogs: { bytesPerSenderPerHour: 100_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await send(report(19_000))).statusCode);
    // 5 reports of ~19 KB fit in 100 KB; the rest are refused.
    expect(statuses).toEqual([...Array<number>(5).fill(201), ...Array<number>(7).fill(429)]);
    expect(guarded.countRows('app_logs')).toBe(5);
    const refused = await send(report(5000));
    expect(refused.json()).toEqual({ statusCode: 429, code: 'RATE_LIMITED', message: 'Se han enviado demasiados informes de error desde esta conexión. Inténtalo de nuevo más tarde.' });

    expect((await send(report(19_000), '198.51.100.9')).statusCode).toBe(201);
    // An IPv6 sender counts by its /64: rotating the interface id does not reset the budget.
    const ipv6 = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => (await send(report(19_000), `2001:db8:1:2::${n}`)).statusCode));
    expect(ipv6.filter((status) => status === 429)).toHaveLength(1);

    clock = new Date(clock.getTime() + 61 * 60 * 1000);
    expect((await send(report(19_000))).statusCode).toBe(201);
  });

  it('prunes by age and by count on a timer', async () => {
    clock = new Date('2026-03-02T10:00:00Z');
    guarded = await startTestServer({ now: () => clock, appLogs: { maxAgeMs: 24 * 60 * 60 * 1000, maxRows: 3, pruneEveryMs: 20 } });
    for (let i = 0; i < 2; i++) expect((await send(report(10), `192.0.2.${i}`)).statusCode).toBe(201);
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    await vi.waitFor(() => expect(guarded.countRows('app_logs')).toBe(0));

    for (let i = 0; i < 6; i++) {
      clock = new Date(clock.getTime() + 1000);
      expect((await send(report(10), `192.0.2.${i}`)).statusCode).toBe(201);
    }
    await vi.waitFor(() => expect(guarded.countRows('app_logs')).toBe(3));
  });

  it('stops pruning when the app closes', async () => {
    guarded = await startTestServer({ appLogs: { pruneEveryMs: 5 } });
    await guarded.app.close();
    // A timer left running would now prune a closed database and log an error.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(guarded.logLines().filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

describe('senderKey', () => {
  it('is the IPv4 address, or the /64 of an IPv6 one', () => {
    expect(senderKey('203.0.113.5')).toBe('203.0.113.5');
    expect(senderKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(senderKey('2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(senderKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(senderKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(senderKey('::1')).toBe('0:0:0:0::/64');
  });
});
