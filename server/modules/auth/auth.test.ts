import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionResponseSchema, sessionStateResponseSchema } from '#shared/api/auth.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ loginRateLimit: { max: 3, timeWindowMs: 60_000 } });
});
afterEach(async () => server.close());

describe('register, login, me, logout', () => {
  it('registers with a session and restores it from the cookie', async () => {
    const jar = await registerUser(server.app, 'ana@asesoria.es');
    const me = await jar.get('/api/users/me');
    expect(me.statusCode).toBe(200);
    const { userData } = sessionResponseSchema.parse(me.json());
    expect(userData).toMatchObject({ email: 'ana@asesoria.es', name: 'Ana Pérez', language: 'es', emailValidated: false, usedSlans: 0 });
    expect(userData.group).toMatchObject({ name: 'Ana Pérez', config: { allowed_routes: [], hidden_routes: [] } });
  });

  it('sets httpOnly cookies: a Lax session cookie for the site and a Strict refresh cookie for /api/auth only', async () => {
    await registerUser(server.app, 'flags@asesoria.es');
    const response = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'flags@asesoria.es', password: PASSWORD } });
    const byName = Object.fromEntries(response.cookies.map((cookie) => [cookie.name, cookie]));
    expect(byName.aa_session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 900 });
    expect(byName.aa_refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth', maxAge: 30 * 24 * 3600 });
  });

  it('marks cookies Secure when configured', async () => {
    const secure = await startTestServer({ cookieSecure: true });
    try {
      const response = await secure.app.inject({ method: 'POST', url: '/api/users', payload: { name: 'S', email: 's@a.es', password: PASSWORD } });
      expect(response.cookies.every((cookie) => cookie.secure === true)).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('logs in with any email case and answers me; logout ends the session', async () => {
    await registerUser(server.app, 'luis@asesoria.es');
    const jar = new CookieJar(server.app);
    const login = await jar.post('/api/auth/login', { email: '  LUIS@Asesoria.es ', password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(sessionResponseSchema.parse(login.json()).userData.email).toBe('luis@asesoria.es');
    const stolenAccess = jar.value('aa_session');

    expect((await jar.post('/api/auth/logout')).statusCode).toBe(200);
    expect(jar.value('aa_session')).toBeUndefined();
    expect(jar.value('aa_refresh')).toBeUndefined();
    // The old cookie value no longer works even if someone kept it.
    const replay = await server.app.inject({ method: 'GET', url: '/api/users/me', cookies: { aa_session: stolenAccess ?? '' } });
    expect(replay.statusCode).toBe(401);
  });

  it('answers 401 UNAUTHENTICATED without a session', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/users/me' });
    expect(response.statusCode).toBe(401);
    expect(apiErrorSchema.parse(response.json()).code).toBe('UNAUTHENTICATED');
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    await registerUser(server.app, 'eva@asesoria.es');
    const wrong = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'eva@asesoria.es', password: 'Otra1234!' } });
    const unknown = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nadie@asesoria.es', password: 'Otra1234!' } });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, code: 'BAD_CREDENTIALS', message: 'Email o contraseña incorrectos' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('rate-limits logins per IP and email with a Spanish 429', async () => {
    const attempt = (email: string) => server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Mala1234!' } });
    for (let i = 0; i < 3; i++) expect((await attempt('x@asesoria.es')).statusCode).toBe(401);
    const blocked = await attempt('x@asesoria.es');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ statusCode: 429, code: 'RATE_LIMITED', message: 'Demasiados intentos. Vuelve a intentarlo dentro de 1 minuto.' });
    expect(blocked.headers['retry-after']).toBe('60');
    // Another email from the same IP has its own budget.
    expect((await attempt('y@asesoria.es')).statusCode).toBe(401);
  });
});

describe('the start-up session restore (GET /api/auth/session)', () => {
  it('answers 200 with no user when signed out, and with the user when signed in', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/auth/session' });
    expect(anonymous.statusCode).toBe(200);
    expect(sessionStateResponseSchema.parse(anonymous.json())).toEqual({ userData: null });
    const jar = await registerUser(server.app, 'restore@asesoria.es');
    const signedIn = await jar.get('/api/auth/session');
    expect(signedIn.statusCode).toBe(200);
    expect(sessionStateResponseSchema.parse(signedIn.json()).userData).toMatchObject({ email: 'restore@asesoria.es' });
  });

  it('renews an expired access cookie with the refresh cookie; a bad refresh cookie is cleared, still a 200', async () => {
    const jar = await registerUser(server.app, 'renew@asesoria.es');
    const refresh = jar.cookies.get('aa_refresh')?.value ?? '';
    const renewed = await server.app.inject({ method: 'GET', url: '/api/auth/session', cookies: { aa_refresh: refresh } });
    expect(renewed.statusCode).toBe(200);
    expect(sessionStateResponseSchema.parse(renewed.json()).userData).toMatchObject({ email: 'renew@asesoria.es' });
    expect(renewed.cookies.map((cookie) => cookie.name).sort()).toEqual(['aa_refresh', 'aa_session']);

    const bad = await server.app.inject({ method: 'GET', url: '/api/auth/session', cookies: { aa_refresh: 'not-a-token' } });
    expect(bad.statusCode).toBe(200);
    expect(sessionStateResponseSchema.parse(bad.json()).userData).toBeNull();
    expect(bad.cookies.find((cookie) => cookie.name === 'aa_refresh')?.value).toBe('');
  });
});

describe('refresh token rotation', () => {
  it('rotates both tokens and revokes the previous pair', async () => {
    const jar = await registerUser(server.app, 'rot@asesoria.es');
    const firstAccess = jar.value('aa_session');
    const firstRefresh = jar.value('aa_refresh');
    const refreshed = await jar.post('/api/auth/newtoken');
    expect(refreshed.statusCode).toBe(200);
    expect(sessionResponseSchema.parse(refreshed.json()).userData.email).toBe('rot@asesoria.es');
    expect(jar.value('aa_session')).not.toBe(firstAccess);
    expect(jar.value('aa_refresh')).not.toBe(firstRefresh);
    expect((await jar.get('/api/users/me')).statusCode).toBe(200);
    const oldAccess = await server.app.inject({ method: 'GET', url: '/api/users/me', cookies: { aa_session: firstAccess ?? '' } });
    expect(oldAccess.statusCode).toBe(401);
  });

  it('treats reuse of a rotated refresh token as theft: the whole family is logged out with a reason', async () => {
    let now = new Date('2025-03-01T10:00:00Z');
    const timed = await startTestServer({ now: () => now });
    try {
      const jar = await registerUser(timed.app, 'reuse@asesoria.es');
      const stolenRefresh = jar.value('aa_refresh') ?? '';
      expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);

      now = new Date('2025-03-01T10:00:11Z'); // past the grace for concurrent refreshes
      const replay = await timed.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: stolenRefresh } });
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ code: 'UNAUTHENTICATED', logoutReason: 'Tu sesión se ha cerrado por seguridad. Vuelve a iniciar sesión.' });
      // The legitimate holder's newer tokens died with the family.
      expect((await jar.get('/api/users/me')).statusCode).toBe(401);
      expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(401);
    } finally {
      await timed.close();
    }
  });

  it('lets two tabs refresh at the same moment without logging the user out', async () => {
    const firstTab = await registerUser(server.app, 'tabs@asesoria.es');
    const sharedRefresh = firstTab.value('aa_refresh') ?? '';
    expect((await firstTab.post('/api/auth/newtoken')).statusCode).toBe(200);
    // The second tab sent the same cookie a moment later.
    const secondTab = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: sharedRefresh } });
    expect(secondTab.statusCode).toBe(200);
    expect(sessionResponseSchema.parse(secondTab.json()).userData.email).toBe('tabs@asesoria.es');
    expect((await firstTab.get('/api/users/me')).statusCode).toBe(200);
  });

  it('hands every replay within the grace the same successor, never a new session', async () => {
    const jar = await registerUser(server.app, 'replay@asesoria.es');
    const oldRefresh = jar.value('aa_refresh') ?? '';
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    const successor = { access: jar.value('aa_session'), refresh: jar.value('aa_refresh') };
    for (let i = 0; i < 5; i++) {
      const replay = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: oldRefresh } });
      expect(replay.statusCode).toBe(200);
      const cookies = Object.fromEntries(replay.cookies.map((cookie) => [cookie.name, cookie.value]));
      expect(cookies).toEqual({ aa_session: successor.access, aa_refresh: successor.refresh });
    }
    // 5 replays used to leave 6 live sessions; now the login's row and its one successor.
    expect(server.countRows('sessions')).toBe(2);
    expect((await jar.get('/api/users/me')).statusCode).toBe(200);
  });

  it('gives concurrent refreshes with one token the same successor', async () => {
    const jar = await registerUser(server.app, 'paralelo@asesoria.es');
    const refresh = jar.value('aa_refresh') ?? '';
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: refresh } })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.cookies.find((cookie) => cookie.name === 'aa_refresh')?.value)).size).toBe(1);
    expect(server.countRows('sessions')).toBe(2);
  });

  it('follows the chain when the other tab already rotated twice within the grace', async () => {
    const jar = await registerUser(server.app, 'cadena@asesoria.es');
    const first = jar.value('aa_refresh') ?? '';
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    const replay = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: first } });
    expect(replay.statusCode).toBe(200);
    expect(replay.cookies.find((cookie) => cookie.name === 'aa_refresh')?.value).toBe(jar.value('aa_refresh'));
    expect(server.countRows('sessions')).toBe(3);
  });

  it('does not revive a logged-out family through the grace window', async () => {
    const jar = await registerUser(server.app, 'gone@asesoria.es');
    const oldRefresh = jar.value('aa_refresh') ?? '';
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    expect((await jar.post('/api/auth/logout')).statusCode).toBe(200);
    const replay = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: oldRefresh } });
    expect(replay.statusCode).toBe(401);
  });

  it('keeps other logins of the same user alive when one family is revoked', async () => {
    const first = await registerUser(server.app, 'two@asesoria.es');
    const second = new CookieJar(server.app);
    await second.post('/api/auth/login', { email: 'two@asesoria.es', password: PASSWORD });
    await first.post('/api/auth/logout');
    expect((await second.get('/api/users/me')).statusCode).toBe(200);
  });

  it('answers 401 without a refresh cookie or with an unknown one', async () => {
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/newtoken' })).statusCode).toBe(401);
    const unknown = await server.app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: 'no-existe' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().logoutReason).toBeUndefined();
  });

  it('expires the access token after 15 minutes and the refresh token after 30 days', async () => {
    let now = new Date('2025-03-01T10:00:00Z');
    const timed = await startTestServer({ now: () => now });
    try {
      const jar = await registerUser(timed.app, 'time@asesoria.es');
      now = new Date('2025-03-01T10:16:00Z');
      expect((await jar.get('/api/users/me')).statusCode).toBe(401);
      expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
      expect((await jar.get('/api/users/me')).statusCode).toBe(200);
      now = new Date('2025-04-01T10:17:00Z');
      expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(401);
    } finally {
      await timed.close();
    }
  });
});
