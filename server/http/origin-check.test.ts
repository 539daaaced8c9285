import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { isAllowedOrigin } from './origin-check.ts';

describe('isAllowedOrigin', () => {
  it('accepts the request’s own origin and listed origins only', () => {
    expect(isAllowedOrigin('http://localhost:8081', 'http://localhost:8081', [])).toBe(true);
    expect(isAllowedOrigin('https://Asesoria.example', 'https://asesoria.example', [])).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', 'http://localhost:8081', ['http://localhost:5173'])).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', 'http://localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('https://evil.example', 'http://localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('null', 'http://localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('http://localhost:8081', null, [])).toBe(false);
  });

  it('compares the scheme and the port too, with default ports normalised', () => {
    expect(isAllowedOrigin('https://localhost:8081', 'http://localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('http://asesoria.example', 'https://asesoria.example', [])).toBe(false);
    expect(isAllowedOrigin('https://localhost:5173', 'http://localhost:8081', ['http://localhost:5173'])).toBe(false);
    expect(isAllowedOrigin('http://localhost:8082', 'http://localhost:8081', [])).toBe(false);
    expect(isAllowedOrigin('https://asesoria.example', 'https://asesoria.example:443', [])).toBe(true);
    expect(isAllowedOrigin('http://asesoria.example:80', 'http://asesoria.example', [])).toBe(true);
    expect(isAllowedOrigin('https://asesoria.example:80', 'http://asesoria.example', [])).toBe(false);
    expect(isAllowedOrigin('https://otra.example', 'http://localhost:8081', ['https://otra.example:443'])).toBe(true);
    expect(isAllowedOrigin('ftp://localhost:8081', 'http://localhost:8081', [])).toBe(false);
  });

  it('takes a listed origin that is not http(s) as written only', () => {
    expect(isAllowedOrigin('app://autoasesor', 'http://localhost:8081', ['app://autoasesor'])).toBe(true);
    expect(isAllowedOrigin('app://otra', 'http://localhost:8081', ['app://autoasesor'])).toBe(false);
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

  it('refuses our own host and port under another scheme: https to this http server', async () => {
    const response = await login({ origin: 'https://localhost:8081', host: 'localhost:8081' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
    expect((await login({ origin: 'http://localhost:80', host: 'localhost' })).statusCode).toBe(401);
    // A client's own X-Forwarded-Proto is not believed without TRUST_PROXY.
    expect((await login({ origin: 'https://localhost:8081', host: 'localhost:8081', 'x-forwarded-proto': 'https' })).statusCode).toBe(403);
  });

  it('does not check safe methods', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/notes/active', headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('origin check behind a trusted proxy (TRUST_PROXY)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: ['10.0.0.1'] });
  });
  afterAll(async () => server.close());

  const login = (headers: Record<string, string>, remoteAddress: string) =>
    server.app.inject({ method: 'POST', url: '/api/auth/login', headers, remoteAddress, payload: { email: 'a@b.es', password: 'x' } });

  it('takes the scheme and host the trusted proxy forwarded, and only from it', async () => {
    const forwarded = { host: '127.0.0.1:8081', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'asesoria.example' };
    expect((await login({ ...forwarded, origin: 'https://asesoria.example' }, '10.0.0.1')).statusCode).toBe(401);
    expect((await login({ ...forwarded, origin: 'http://asesoria.example' }, '10.0.0.1')).statusCode).toBe(403);
    expect((await login({ ...forwarded, origin: 'https://asesoria.example' }, '192.0.2.9')).statusCode).toBe(403);
    expect((await login({ host: 'asesoria.example', 'x-forwarded-proto': 'https', origin: 'https://asesoria.example' }, '10.0.0.1')).statusCode).toBe(401);
  });
});
