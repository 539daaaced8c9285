import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { isAllowedOrigin } from './origin-check.ts';

describe('isAllowedOrigin', () => {
  it('accepts the request’s own host and listed origins only', () => {
    expect(isAllowedOrigin('http://localhost:8081', 'localhost:8081', [])).toBe(true);
    expect(isAllowedOrigin('https://Asesoria.example', 'asesoria.example', [])).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', 'localhost:8081', ['http://localhost:5173'])).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', 'localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('https://evil.example', 'localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('null', 'localhost:8081', [])).toBe(false);
  });
});

describe('origin check on unsafe methods', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ allowedOrigins: ['http://localhost:5173'] });
  });
  afterAll(async () => server.close());

  const login = (headers: Record<string, string>) =>
    server.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { email: 'a@b.es', password: 'x' } });

  it('refuses a foreign Origin with 403 before doing anything', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { origin: 'https://evil.example', host: 'localhost:8081' },
      payload: { name: 'X', email: 'x@b.es', password: 'Buena123!' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ statusCode: 403, code: 'FORBIDDEN_ORIGIN', message: 'Origen no permitido' });
    expect(server.countRows('users')).toBe(0);
  });

  it('lets through same-origin, allowed origins and requests without Origin', async () => {
    expect((await login({ origin: 'http://localhost:8081', host: 'localhost:8081' })).statusCode).toBe(401);
    expect((await login({ origin: 'http://localhost:5173', host: 'localhost:8081' })).statusCode).toBe(401);
    expect((await login({ host: 'localhost:8081' })).statusCode).toBe(401);
  });

  it('does not check safe methods', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/notes/active', headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(200);
  });
});
