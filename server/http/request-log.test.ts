import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../test/harness.ts';
import { SLOW_REQUEST_MS, requestLogLevel } from './request-log.ts';

describe('requestLogLevel', () => {
  it('logs failures and slow requests only', () => {
    expect(requestLogLevel(200, 5)).toBeNull();
    expect(requestLogLevel(304, 5)).toBeNull();
    expect(requestLogLevel(201, SLOW_REQUEST_MS)).toBe('warn');
    expect(requestLogLevel(404, 5)).toBe('info');
    expect(requestLogLevel(503, SLOW_REQUEST_MS * 2)).toBe('error');
  });
});

describe('request logging under load', () => {
  let server: TestServer;
  let jar: CookieJar;
  const bytes: string[] = [];
  beforeAll(async () => {
    server = await startTestServer({ logStream: { write: (line) => bytes.push(line) } });
    jar = await registerUser(server.app, 'carga@asesoria.es');
  });
  afterAll(async () => server.close());

  it('writes nothing for successful hits and one short summary for a failure', async () => {
    bytes.length = 0;
    for (let i = 0; i < 100; i++) {
      expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect((await jar.get('/api/preferences')).statusCode).toBe(200);
    }
    // It was ~380 B per request (request + response lines): 200 hits would have been ~76 KB.
    expect(bytes.join('').length).toBe(0);

    const missing = await server.app.inject({ method: 'GET', url: '/api/no-existe?token=secreto' });
    expect(missing.statusCode).toBe(404);
    expect(bytes).toHaveLength(1);
    const line = JSON.parse(bytes[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, method: 'GET', path: '/api/no-existe', status: 404, msg: 'petición fallida' });
    expect(bytes[0]).not.toContain('secreto');
    expect(bytes[0]?.length).toBeLessThan(300);
  });
});
