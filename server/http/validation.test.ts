import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { apiErrorSchema } from '#shared/api/errors.ts';
import type { Database } from '../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../test/harness.ts';

let server: TestServer;
let jar: CookieJar;
beforeAll(async () => {
  server = await startTestServer();
  jar = await registerUser(server.app, 'valida@asesoria.es');
});
afterAll(async () => server.close());

const TABLES: Array<keyof Database> = ['groups', 'users', 'sessions', 'user_tokens', 'preferences', 'app_logs', 'release_notes', 'plans', 'subscriptions'];
const snapshot = () => server.countTables(TABLES);

type Case = { name: string; request: InjectOptions & { url: string }; path: string; message?: string };

const REQUIRED = 'Este campo es obligatorio';
const BAD_EMAIL = 'Introduce una dirección de correo electrónico válida';
const BAD_PASSWORD = 'La contraseña debe incluir al menos 8 caracteres, un número, una mayúscula y un símbolo especial';

const cases: Case[] = [
  { name: 'register without name', request: { method: 'POST', url: '/api/users', payload: { email: 'n@a.es', password: 'Buena123!' } }, path: 'name', message: REQUIRED },
  { name: 'register with a bad email', request: { method: 'POST', url: '/api/users', payload: { name: 'N', email: 'no-es-email', password: 'Buena123!' } }, path: 'email', message: BAD_EMAIL },
  { name: 'register with a weak password', request: { method: 'POST', url: '/api/users', payload: { name: 'N', email: 'n@a.es', password: 'debil' } }, path: 'password', message: BAD_PASSWORD },
  { name: 'register with a body that is not JSON', request: { method: 'POST', url: '/api/users', headers: { 'content-type': 'application/json' }, payload: '{"name":' }, path: '(body)' },
  { name: 'register with an array body', request: { method: 'POST', url: '/api/users', payload: [1, 2] }, path: '(body)' },
  { name: 'login without password', request: { method: 'POST', url: '/api/auth/login', payload: { email: 'n@a.es' } }, path: 'password', message: REQUIRED },
  { name: 'login with an empty email', request: { method: 'POST', url: '/api/auth/login', payload: { email: '  ', password: 'x' } }, path: 'email', message: REQUIRED },
  { name: 'resetpass with a bad email', request: { method: 'POST', url: '/api/auth/resetpass', payload: { email: 'x' } }, path: 'email', message: BAD_EMAIL },
  { name: 'resetpasscheck with a short token', request: { method: 'POST', url: '/api/auth/resetpasscheck', payload: { token: 'corto' } }, path: 'token', message: 'El enlace no es válido' },
  { name: 'emailcheck with a bad email', request: { method: 'GET', url: '/api/users/emailcheck/nada' }, path: 'email', message: BAD_EMAIL },
  { name: 'applogs without message', request: { method: 'POST', url: '/api/applogs', payload: { level: 'error' } }, path: 'message' },
  { name: 'applogs with an unknown level', request: { method: 'POST', url: '/api/applogs', payload: { level: 'fatal', message: 'x' } }, path: 'level' },
  { name: 'applogs with a non-object context', request: { method: 'POST', url: '/api/applogs', payload: { message: 'x', context: 'texto' } }, path: 'context' },
];

const signedInCases: Case[] = [
  { name: 'profile with an unknown field', request: { method: 'PUT', url: '/api/users', payload: { name: 'A', role: 'admin' } }, path: '(body)' },
  { name: 'profile with an unknown language', request: { method: 'PUT', url: '/api/users', payload: { language: 'fr' } }, path: 'language' },
  { name: 'profile with an empty name', request: { method: 'PUT', url: '/api/users', payload: { name: ' ' } }, path: 'name', message: REQUIRED },
  { name: 'profile with a weak new password', request: { method: 'PUT', url: '/api/users', payload: { currentPassword: 'x', newPassword: 'abc' } }, path: 'newPassword', message: BAD_PASSWORD },
  { name: 'preferences with a non-object body', request: { method: 'PATCH', url: '/api/preferences', payload: [1] }, path: '(body)' },
  { name: 'preferences with a too-long key', request: { method: 'PATCH', url: '/api/preferences', payload: { ['k'.repeat(101)]: 1 } }, path: 'k'.repeat(101) },
  { name: 'email validation with a short token', request: { method: 'POST', url: '/api/auth/emailvalidation/valida%40asesoria.es', payload: { token: 'x' } }, path: 'token' },
  { name: 'email validation of a bad email', request: { method: 'POST', url: '/api/auth/emailvalidation/nada' }, path: 'email', message: BAD_EMAIL },
];

describe('bad input', () => {
  it.each(cases)('$name -> 400 with the field path, nothing written', async ({ request, path, message }) => {
    const before = snapshot();
    const response = await server.app.inject(request);
    expectValidationError(response.statusCode, response.json(), path, message);
    expect(snapshot()).toEqual(before);
  });

  it.each(signedInCases)('$name (signed in) -> 400 with the field path, nothing written', async ({ request, path, message }) => {
    const before = snapshot();
    const response = await jar.request(request);
    expectValidationError(response.statusCode, response.json(), path, message);
    expect(snapshot()).toEqual(before);
  });

  it('uses Spanish for generic zod messages too', async () => {
    const response = await jar.request({ method: 'PUT', url: '/api/users', payload: { language: 'fr' } });
    const issue = response.json().issues[0] as { message: string };
    expect(issue.message).toMatch(/^Opción inválida/);
  });

  it('answers 415 in the error shape for a body that is not JSON', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/xml' }, payload: '<hola/>' });
    expect(response.statusCode).toBe(415);
    expect(apiErrorSchema.parse(response.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

function expectValidationError(status: number, body: unknown, path: string, message?: string): void {
  expect(status).toBe(400);
  const error = apiErrorSchema.parse(body);
  expect(error).toMatchObject({ statusCode: 400, code: 'VALIDATION', message: 'Revisa los datos enviados' });
  const issue = error.issues?.find((candidate) => candidate.path === path);
  expect(issue, JSON.stringify(error.issues)).toBeDefined();
  if (message) expect(issue?.message).toBe(message);
}

describe('hostile or odd requests never reach a 500', () => {
  it('reads an empty JSON body as no body', async () => {
    const logout = await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(logout.statusCode).toBe(200);
    const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(login.statusCode).toBe(400);
    expect(login.json().issues.map((issue: { path: string }) => issue.path)).toEqual(['email', 'password']);
  });

  it('refuses prototype poisoning, malformed URLs and oversized bodies in the error shape', async () => {
    const poisoned = await server.app.inject({ method: 'PATCH', url: '/api/preferences', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"admin":true}}' });
    const badUrl = await server.app.inject({ method: 'GET', url: '/api/users/emailcheck/%E0%A4%A' });
    const huge = await server.app.inject({ method: 'POST', url: '/api/applogs', payload: { message: 'x', stack: 'y'.repeat(1_100_000) } });
    for (const [response, status] of [[poisoned, 400], [badUrl, 400], [huge, 413]] as const) {
      expect(response.statusCode).toBe(status);
      expect(apiErrorSchema.safeParse(response.json()).success).toBe(true);
    }
    expect(server.countRows('app_logs')).toBe(0);
  });
});
