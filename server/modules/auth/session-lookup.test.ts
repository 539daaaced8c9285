import { afterEach, describe, expect, it } from 'vitest';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

/**
 * The session lookup is compiled once per database and only given each request's values
 * (sessions.ts findActiveSession): nothing about a session may be remembered between requests.
 */
let server: TestServer;
afterEach(async () => server.close());

/** The Cookie header of a jar's access cookie, to send it again after the jar has let it go. */
function accessCookieOf(jar: CookieJar): string {
  const cookie = jar.cookies.get('aa_session');
  if (!cookie) throw new Error('sin cookie de sesión');
  return `aa_session=${cookie.value}`;
}

describe('the session of each request', () => {
  it('answers each caller with their own session, whoever asked first', async () => {
    server = await startTestServer();
    const ana = await registerUser(server.app, 'ana@asesoria-uno.es');
    const luis = await registerUser(server.app, 'luis@asesoria-dos.es', 'Luis Gil');
    for (const [jar, email] of [[ana, 'ana@asesoria-uno.es'], [luis, 'luis@asesoria-dos.es'], [ana, 'ana@asesoria-uno.es']] as const) {
      const me = await jar.get('/api/users/me');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ userData: { email } });
    }
  });

  it('refuses a revoked session on the very next request', async () => {
    server = await startTestServer();
    await registerUser(server.app, 'ana@asesoria.es');
    const jar = new CookieJar(server.app);
    expect((await jar.post('/api/auth/login', { email: 'ana@asesoria.es', password: PASSWORD })).statusCode).toBe(200);
    const access = accessCookieOf(jar);
    expect((await server.app.inject({ method: 'GET', url: '/api/flowlog', headers: { cookie: access } })).statusCode).toBe(200);
    expect((await jar.post('/api/auth/logout')).statusCode).toBeLessThan(300);
    const after = await server.app.inject({ method: 'GET', url: '/api/flowlog', headers: { cookie: access } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses an access token from the instant it expires, not a request later', async () => {
    let now = new Date('2025-03-01T10:00:00.000Z');
    server = await startTestServer({ now: () => now });
    const jar = await registerUser(server.app, 'ana@asesoria.es');
    now = new Date('2025-03-01T10:14:59.999Z');
    expect((await jar.get('/api/flowlog')).statusCode).toBe(200);
    now = new Date('2025-03-01T10:15:00.000Z');
    expect((await jar.get('/api/flowlog')).statusCode).toBe(401);
  });
});
