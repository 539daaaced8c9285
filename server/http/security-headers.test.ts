import { afterEach, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../test/harness.ts';

let server: TestServer | undefined;
afterEach(async () => server?.close());

describe('security headers', () => {
  it('every /api response says no-store: success, error and signed-in answers alike', async () => {
    server = await startTestServer();
    const jar = await registerUser(server.app, 'cabeceras@asesoria.es');
    const responses = [
      await server.app.inject({ method: 'GET', url: '/api/health' }),
      await server.app.inject({ method: 'GET', url: '/api/users/me' }),
      await server.app.inject({ method: 'GET', url: '/api/no-existe' }),
      await jar.get('/api/users/me'),
      await jar.get('/api/preferences'),
      await jar.get('/api/health?x=1'),
    ];
    expect(responses.map((response) => [response.statusCode, response.headers['cache-control']])).toEqual([
      [200, 'no-store'],
      [401, 'no-store'],
      [404, 'no-store'],
      [200, 'no-store'],
      [200, 'no-store'],
      [200, 'no-store'],
    ]);
  });

  it('sends HSTS only when PUBLIC_URL is https', async () => {
    server = await startTestServer({ publicUrl: 'https://asesoria.example' });
    const https = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
    await server.close();
    server = await startTestServer({ publicUrl: 'http://localhost:8081' });
    const http = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    expect(http.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
  });
});
