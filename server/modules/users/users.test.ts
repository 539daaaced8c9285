import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionResponseSchema } from '#shared/api/auth.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

describe('registration', () => {
  it('creates a group named after the user and a trial subscription, in the caller’s language', async () => {
    const jar = new CookieJar(server.app);
    const response = await jar.request({
      method: 'POST',
      url: '/api/users',
      headers: { 'accept-language': 'ca-ES,ca;q=0.9,es;q=0.8' },
      payload: { name: '  Jordi Puig ', email: 'Jordi@Gestoria.cat', password: PASSWORD },
    });
    expect(response.statusCode).toBe(201);
    const { userData } = sessionResponseSchema.parse(response.json());
    expect(userData).toMatchObject({ name: 'Jordi Puig', email: 'jordi@gestoria.cat', language: 'ca', group: { name: 'Jordi Puig' } });
    expect([server.countRows('users'), server.countRows('groups'), server.countRows('subscriptions')]).toEqual([1, 1, 1]);
  });

  it('answers 409 EMAIL_TAKEN for an email in use, in any case, and writes nothing', async () => {
    await registerUser(server.app, 'repe@asesoria.es');
    const response = await server.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Otra', email: 'REPE@asesoria.es', password: PASSWORD } });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ statusCode: 409, code: 'EMAIL_TAKEN', message: 'Este email ya está en uso' });
    expect([server.countRows('users'), server.countRows('groups'), server.countRows('subscriptions')]).toEqual([1, 1, 1]);
  });

  it('keeps one account when two registrations race for the same email', async () => {
    const attempt = () => server.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Par', email: 'par@asesoria.es', password: PASSWORD } });
    const statuses = (await Promise.all([attempt(), attempt()])).map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
    expect(server.countRows('groups')).toBe(1);
  });

  it('lets one address sign up SIGNUPS_PER_IP_HOUR accounts an hour, then answers 429 and writes nothing', async () => {
    const limited = await startTestServer({ signupsPerIpHour: 2 });
    try {
      const signUp = (email: string) => limited.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Ana', email, password: PASSWORD } });
      expect((await signUp('una@asesoria.es')).statusCode).toBe(201);
      expect((await signUp('dos@asesoria.es')).statusCode).toBe(201);
      expect((await signUp('tres@asesoria.es')).statusCode).toBe(429);
      expect(limited.countRows('users')).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('email check', () => {
  it('says whether an email is registered', async () => {
    await registerUser(server.app, 'existe@asesoria.es');
    const check = async (email: string) => (await server.app.inject({ method: 'GET', url: `/api/users/emailcheck/${encodeURIComponent(email)}` })).json();
    expect(await check('EXISTE@asesoria.es')).toEqual({ exists: true });
    expect(await check('nuevo@asesoria.es')).toEqual({ exists: false });
  });
});

describe('profile update', () => {
  it('changes name and language', async () => {
    const jar = await registerUser(server.app, 'perfil@asesoria.es');
    const response = await jar.put('/api/users', { name: 'Ana María', language: 'en' });
    expect(response.statusCode).toBe(200);
    expect(sessionResponseSchema.parse(response.json()).userData).toMatchObject({ name: 'Ana María', language: 'en' });
  });

  it('changes the password only with the right current one, and signs out other devices', async () => {
    const jar = await registerUser(server.app, 'clave@asesoria.es');
    const otherDevice = new CookieJar(server.app);
    await otherDevice.post('/api/auth/login', { email: 'clave@asesoria.es', password: PASSWORD });

    const wrong = await jar.put('/api/users', { currentPassword: 'Mala1234!', newPassword: 'Nueva5678$' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'VALIDATION', issues: [{ path: 'currentPassword', message: 'La contraseña actual no es correcta' }] });

    const missing = await jar.put('/api/users', { newPassword: 'Nueva5678$' });
    expect(missing.json().issues).toEqual([{ path: 'currentPassword', message: 'Introduce tu contraseña actual para cambiarla' }]);

    expect((await jar.put('/api/users', { currentPassword: PASSWORD, newPassword: 'Nueva5678$' })).statusCode).toBe(200);
    expect((await jar.get('/api/users/me')).statusCode).toBe(200);
    expect((await otherDevice.get('/api/users/me')).statusCode).toBe(401);
    const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'clave@asesoria.es', password: 'Nueva5678$' } });
    expect(login.statusCode).toBe(200);
  });

  it('throttles current-password guesses like logins: 429 after the limit, even for the right password', async () => {
    const jar = await registerUser(server.app, 'oraculo@asesoria.es');
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await jar.put('/api/users', { currentPassword: `Mala${i}234!`, newPassword: 'Nueva5678$' })).statusCode);
    // 5 free tries per account, then a growing wait, and at most 10 per minute from one client.
    expect(statuses.slice(0, 5)).toEqual(Array<number>(5).fill(400));
    expect(statuses.slice(10)).toEqual(Array<number>(20).fill(429));
    const right = await jar.put('/api/users', { currentPassword: PASSWORD, newPassword: 'Nueva5678$' });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/^Demasiados intentos.*vuelve a intentarlo dentro de \d+ (segundos?|minutos?)/i);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // Name and language changes need no password and are not throttled.
    expect((await jar.put('/api/users', { name: 'Sigue' })).statusCode).toBe(200);
  });

  it('shares the per-account counter with logins, across clients', async () => {
    const limited = await startTestServer({ authLimits: { perAccount: { windowMs: 3_600_000, freeHits: 3, stepMs: 60_000, lockAt: 3, lockMs: 900_000 } } });
    try {
      const jar = await registerUser(limited.app, 'mixto@asesoria.es');
      const wrongLogin = (ip: string) =>
        limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'mixto@asesoria.es', password: 'Mala1234!' }, remoteAddress: ip });
      expect((await wrongLogin('198.51.100.1')).statusCode).toBe(401);
      expect((await wrongLogin('198.51.100.2')).statusCode).toBe(401);
      expect((await jar.put('/api/users', { currentPassword: 'Mala1234!', newPassword: 'Nueva5678$' })).statusCode).toBe(400);
      expect((await jar.put('/api/users', { currentPassword: PASSWORD, newPassword: 'Nueva5678$' })).statusCode).toBe(429);
      expect(limited.logLines().some((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'account_locked')).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'PUT', url: '/api/users', payload: { name: 'X' } })).statusCode).toBe(401);
  });
});
