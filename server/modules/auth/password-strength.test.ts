import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGE } from '#shared/api/fields.ts';
import { COMMON_PASSWORD_MESSAGE } from '#shared/validation/password.ts';
import { PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { isTooGuessable } from './password-strength.ts';

describe('isTooGuessable', () => {
  it('refuses common and leaked passwords that pass the format rule', async () => {
    for (const password of ['Password1!', 'P@ssw0rd1', 'Qwerty123!', 'Abcd1234!', 'Welcome1!', 'Iloveyou1!', 'Barcelona1!', 'Aaaaaaa1!']) {
      expect(await isTooGuessable(password), password).toBe(true);
    }
  });

  it('refuses the product’s name and the user’s own name or email as the base', async () => {
    expect(await isTooGuessable('Autoasesor1!')).toBe(true);
    expect(await isTooGuessable('Marisol12!', ['Marisol Gil', 'marisol.gil@asesoria.es'])).toBe(true);
  });

  it('accepts passwords an attacker would not try first', async () => {
    for (const password of [PASSWORD, 'Nueva5678$', 'Distinta456?', 'Naranja#Azul7', 'Kx9#mTq2vL']) expect(await isTooGuessable(password), password).toBe(false);
  });
});

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

const issuesOf = (response: { json: () => unknown }) => (response.json() as { issues?: unknown }).issues;

describe('common passwords at every place a password is chosen', () => {
  it('sign-up: the format message for the format rule, the common-password message for Password1!, nothing written', async () => {
    const signUp = (password: string) => server.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Ana', email: 'ana@asesoria.es', password } });
    expect(issuesOf(await signUp('password'))).toEqual([{ path: 'password', message: PASSWORD_MESSAGE }]);
    const common = await signUp('Password1!');
    expect(common.statusCode).toBe(400);
    expect(issuesOf(common)).toEqual([{ path: 'password', message: COMMON_PASSWORD_MESSAGE }]);
    expect(server.countRows('users')).toBe(0);
    expect((await signUp(PASSWORD)).statusCode).toBe(201);
  });

  it('reset: refused with the link still usable', async () => {
    await registerUser(server.app, 'reset@asesoria.es');
    await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'reset@asesoria.es' } });
    const token = new URL(server.mailedLinks('reset_password')[0] ?? '').searchParams.get('token');
    const common = await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password: 'Password1!' } });
    expect(common.statusCode).toBe(400);
    expect(issuesOf(common)).toEqual([{ path: 'password', message: COMMON_PASSWORD_MESSAGE }]);
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password: 'Nueva5678$' } })).statusCode).toBe(200);
  });

  it('change: refused on newPassword, the old password still works', async () => {
    const jar = await registerUser(server.app, 'cambio@asesoria.es');
    const common = await jar.put('/api/users', { currentPassword: PASSWORD, newPassword: 'Password1!' });
    expect(common.statusCode).toBe(400);
    expect(issuesOf(common)).toEqual([{ path: 'newPassword', message: COMMON_PASSWORD_MESSAGE }]);
    const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'cambio@asesoria.es', password: PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('the seeded demo password still signs in (it is seeded, not chosen through these routes)', async () => {
    const demo = await startTestServer({ demoAccount: true, demoFiles: false });
    try {
      const login = await demo.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'demo@autoasesor.es', password: 'Demo1234!' } });
      expect(login.statusCode).toBe(200);
    } finally {
      await demo.close();
    }
  });
});
