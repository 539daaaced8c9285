import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authPaths } from '#shared/api/auth-paths.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { ACCESS_COOKIE } from '../../http/session.ts';
import { CookieJar, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { GOOGLE_NOT_CONFIGURED_MESSAGE } from './google-routes.ts';
import { safeRedirect } from './google.ts';
import { startGoogleTestProvider, subOf, type GoogleTestProvider } from './google-test-provider.ts';

/** The browser's trip: our start, Google's page (the stand-in, over HTTP), back to our callback. */
async function throughGoogle(jar: CookieJar, redirect?: string, changeCallback: (url: URL) => void = () => undefined) {
  const start = await jar.get(`${authPaths.googleStart}${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`);
  expect(start.statusCode, start.body).toBe(302);
  const atGoogle = await fetch(String(start.headers.location), { redirect: 'manual' });
  expect(atGoogle.status).toBe(302);
  const back = new URL(atGoogle.headers.get('location') ?? '');
  expect(back.origin + back.pathname).toBe(`http://app.test${authPaths.googleCallback}`);
  changeCallback(back);
  return jar.get(back.pathname + back.search);
}

const userByEmail = (db: Kysely<Database>, email: string) => db.selectFrom('users').select(['id', 'google_sub']).where('email', '=', email).executeTakeFirstOrThrow();

describe('Sign in with Google when not configured', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  it('is not offered: status says so, start answers 404 in Spanish, the callback refuses', async () => {
    const status = await server.app.inject({ method: 'GET', url: authPaths.googleStatus });
    expect(status.json()).toEqual({ enabled: false });
    const start = await server.app.inject({ method: 'GET', url: authPaths.googleStart });
    expect(start.statusCode).toBe(404);
    expect(start.json()).toMatchObject({ message: GOOGLE_NOT_CONFIGURED_MESSAGE });
    const callback = await server.app.inject({ method: 'GET', url: `${authPaths.googleCallback}?code=x&state=y` });
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/auth?google=not-configured');
    expect(server.countRows('google_sign_ins')).toBe(0);
  });

  it('limits start and callback per address', async () => {
    for (const url of [authPaths.googleStart, authPaths.googleCallback]) {
      const answers: number[] = [];
      for (let attempt = 0; attempt < 31; attempt++) answers.push((await server.app.inject({ method: 'GET', url })).statusCode);
      expect(answers.slice(0, 30).every((status) => status !== 429)).toBe(true);
      expect(answers[30]).toBe(429);
    }
  });
});

describe('Sign in with Google (OpenID Connect against the stand-in)', () => {
  let google: GoogleTestProvider;
  let server: TestServer;
  let db: Kysely<Database>;

  beforeAll(async () => {
    google = await startGoogleTestProvider();
  });
  afterAll(async () => google.close());
  beforeEach(async () => {
    server = await startTestServer({ google: google.config });
    db = connectDatabase(server.database);
  });
  afterEach(async () => {
    await db.destroy();
    await server.close();
  });

  it('is offered without showing its settings, and start sends the browser to Google with PKCE S256, state and nonce', async () => {
    const status = await server.app.inject({ method: 'GET', url: authPaths.googleStatus });
    expect(status.json()).toEqual({ enabled: true });
    const start = await server.app.inject({ method: 'GET', url: `${authPaths.googleStart}?redirect=/flows` });
    expect(start.statusCode).toBe(302);
    const location = new URL(String(start.headers.location));
    expect(location.origin + location.pathname).toBe(`${google.baseUrl}/authorize`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('scope')).toBe('openid email profile');
    expect(location.searchParams.get('redirect_uri')).toBe(`http://app.test${authPaths.googleCallback}`);
    const row = await db.selectFrom('google_sign_ins').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: location.searchParams.get('state'), nonce: location.searchParams.get('nonce'), redirect_to: '/flows' });
  });

  it('signs an existing account in by its verified email, links it, and sends the browser to the saved path', async () => {
    await registerUser(server.app, 'ana@asesoria.test');
    google.signInAs({ email: 'Ana@Asesoria.test', emailVerified: true });
    const jar = new CookieJar(server.app);
    const back = await throughGoogle(jar, '/flows?tab=1');
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/flows?tab=1');
    expect(jar.value(ACCESS_COOKIE)).toBeTruthy();
    const session = await jar.get(authPaths.session);
    expect(session.json()).toMatchObject({ userData: { email: 'ana@asesoria.test' } });
    expect((await userByEmail(db, 'ana@asesoria.test')).google_sub).toBe(subOf('Ana@Asesoria.test'));
    // Single use: the state is gone.
    expect(server.countRows('google_sign_ins')).toBe(0);
  });

  it('finds the account by the linked Google subject on later sign-ins, even once the Google address changed', async () => {
    await registerUser(server.app, 'luis@asesoria.test');
    const sub = 'google-subject-luis';
    google.signInAs({ email: 'luis@asesoria.test', emailVerified: true, sub });
    expect((await throughGoogle(new CookieJar(server.app))).headers.location).toBe('/');
    google.signInAs({ email: 'luis.gil@otra.test', emailVerified: true, sub });
    const jar = new CookieJar(server.app);
    const back = await throughGoogle(jar, '/home');
    expect(back.headers.location).toBe('/home');
    expect((await jar.get(authPaths.session)).json()).toMatchObject({ userData: { email: 'luis@asesoria.test' } });
  });

  it('refuses an address Google has not verified, and links nothing', async () => {
    await registerUser(server.app, 'eva@asesoria.test');
    google.signInAs({ email: 'eva@asesoria.test', emailVerified: false });
    const jar = new CookieJar(server.app);
    const back = await throughGoogle(jar);
    expect(back.headers.location).toBe('/auth?google=unverified');
    expect(jar.value(ACCESS_COOKIE)).toBeUndefined();
    expect((await userByEmail(db, 'eva@asesoria.test')).google_sub).toBeNull();
  });

  it('never makes an account for an unknown address', async () => {
    const users = server.countRows('users');
    google.signInAs({ email: 'nadie@gmail.test', emailVerified: true });
    const jar = new CookieJar(server.app);
    expect((await throughGoogle(jar)).headers.location).toBe('/auth?google=no-account');
    expect(server.countRows('users')).toBe(users);
    expect(jar.value(ACCESS_COOKIE)).toBeUndefined();
  });

  it('refuses a removed colleague', async () => {
    await registerUser(server.app, 'baja@asesoria.test');
    await db.updateTable('users').set({ disabled_at: '2026-01-01T00:00:00.000Z' }).where('email', '=', 'baja@asesoria.test').execute();
    google.signInAs({ email: 'baja@asesoria.test', emailVerified: true });
    expect((await throughGoogle(new CookieJar(server.app))).headers.location).toBe('/auth?google=disabled');
  });

  it('refuses a callback whose state is not ours, and a state used twice', async () => {
    await registerUser(server.app, 'ines@asesoria.test');
    google.signInAs({ email: 'ines@asesoria.test', emailVerified: true });
    const forged = await throughGoogle(new CookieJar(server.app), '/', (url) => url.searchParams.set('state', 'estado-inventado'));
    expect(forged.headers.location).toBe('/auth?google=failed');

    let used = '';
    const first = await throughGoogle(new CookieJar(server.app), '/', (url) => {
      used = url.pathname + url.search;
    });
    expect(first.headers.location).toBe('/');
    const replay = await new CookieJar(server.app).get(used);
    expect(replay.headers.location).toBe('/auth?google=failed');
  });

  it('refuses an id_token with another nonce, or signed with a key Google does not publish', async () => {
    await registerUser(server.app, 'olga@asesoria.test');
    google.signInAs({ email: 'olga@asesoria.test', emailVerified: true });
    google.forgeNextNonce('otro-nonce');
    const jar = new CookieJar(server.app);
    expect((await throughGoogle(jar)).headers.location).toBe('/auth?google=failed');
    google.forgeNextSignature();
    expect((await throughGoogle(jar)).headers.location).toBe('/auth?google=failed');
    expect(jar.value(ACCESS_COOKIE)).toBeUndefined();
    expect((await userByEmail(db, 'olga@asesoria.test')).google_sub).toBeNull();
  });

  it('says so when the user refuses on Google', async () => {
    google.denyNext();
    expect((await throughGoogle(new CookieJar(server.app))).headers.location).toBe('/auth?google=denied');
  });

  it('never redirects off the site after signing in', async () => {
    await registerUser(server.app, 'pablo@asesoria.test');
    google.signInAs({ email: 'pablo@asesoria.test', emailVerified: true });
    for (const redirect of ['https://malo.test/robar', '//malo.test/robar', '/\\malo.test', 'javascript:alert(1)']) {
      const back = await throughGoogle(new CookieJar(server.app), redirect);
      expect(back.statusCode).toBe(302);
      expect(back.headers.location, redirect).toBe('/');
    }
  });
});

describe('safeRedirect', () => {
  it('keeps paths of this site only', () => {
    expect(safeRedirect('/flows?x=1#y')).toBe('/flows?x=1#y');
    expect(safeRedirect(undefined)).toBe('/');
    expect(safeRedirect('//evil.test')).toBe('/');
    expect(safeRedirect('/\\evil.test')).toBe('/');
    expect(safeRedirect('https://evil.test')).toBe('/');
    expect(safeRedirect('/a\nb')).toBe('/');
  });
});
