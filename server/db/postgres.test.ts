import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { CookieJar, PASSWORD } from '../test/harness.ts';

/**
 * The core account flow on PostgreSQL, to prove the migrations and queries portable. Runs only
 * when TEST_DATABASE_URL points at a server; each run works in its own schema and drops it after.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('PostgreSQL (set TEST_DATABASE_URL=postgres://... to run; skipped without it)', () => {
  const schema = `autoasesor_test_${randomUUID().replaceAll('-', '')}`;
  const lines: string[] = [];
  let app: FastifyInstance;
  let admin: pg.Client;
  // A clock the test can move: reuse of a rotated refresh token counts as theft only after the grace.
  let now = new Date();

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const scoped = new URL(url ?? '');
    scoped.searchParams.set('options', `-c search_path=${schema}`);
    // Names this server's connections, so the restart test below ends them and no other suite's.
    scoped.searchParams.set('application_name', schema);
    app = await buildApp({
      database: { kind: 'postgres', url: scoped.toString() },
      webRoot: '/nonexistent',
      publicUrl: 'http://app.test',
      cookieSecure: false,
      allowedOrigins: [],
      logStream: { write: (line) => lines.push(line) },
      now: () => now,
    });
  });

  afterAll(async () => {
    await app?.close();
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  it('migrated into its own schema', async () => {
    const { rows } = await admin.query<{ table_name: string }>('select table_name from information_schema.tables where table_schema = $1 order by 1', [schema]);
    expect(rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(['users', 'sessions', 'subscriptions', 'plans', 'kysely_migration']));
  });

  it('registers, restores, rotates, detects reuse, logs in and out', async () => {
    const jar = new CookieJar(app);
    expect((await jar.post('/api/users', { name: 'Pilar', email: 'pilar@asesoria.es', password: PASSWORD })).statusCode).toBe(201);
    expect((await app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Otra', email: 'PILAR@asesoria.es', password: PASSWORD } })).statusCode).toBe(409);
    expect((await jar.get('/api/users/me')).json().userData.group.name).toBe('Pilar');

    const firstRefresh = jar.value('aa_refresh') ?? '';
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
    now = new Date(now.getTime() + 11_000); // past the 10 s grace for concurrent refreshes
    const reuse = await app.inject({ method: 'POST', url: '/api/auth/newtoken', cookies: { aa_refresh: firstRefresh } });
    expect(reuse.json().logoutReason).toBe('Tu sesión se ha cerrado por seguridad. Vuelve a iniciar sesión.');
    expect((await jar.get('/api/users/me')).statusCode).toBe(401);

    expect((await jar.post('/api/auth/login', { email: 'pilar@asesoria.es', password: 'Mala1234!' })).statusCode).toBe(401);
    expect((await jar.post('/api/auth/login', { email: 'pilar@asesoria.es', password: PASSWORD })).statusCode).toBe(200);
    expect((await jar.patch('/api/preferences', { a: 1, b: { c: [true] } })).statusCode).toBe(200);
    expect((await jar.patch('/api/preferences', { a: null })).json()).toEqual({ preferences: { b: { c: [true] } } });
    expect((await jar.get('/api/subscriptions/launcher')).json()).toEqual({ active: true, trialing: true, name: 'Prueba', balance: 500 });
    expect((await jar.post('/api/applogs', { message: 'fallo', context: { n: 1 } })).statusCode).toBe(201);
    expect((await jar.get('/api/notes/active')).json().items).toHaveLength(2);
    expect((await jar.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await jar.get('/api/users/me')).statusCode).toBe(401);
  });

  it('resets a password with the logged link', async () => {
    await app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'pilar@asesoria.es' } });
    const link = lines.map((line) => JSON.parse(line) as { mail?: { link: string } }).find((line) => line.mail)?.mail?.link ?? '';
    const token = new URL(link).searchParams.get('token');
    const reset = await app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password: 'Nueva5678$' } });
    expect(reset.statusCode).toBe(200);
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'pilar@asesoria.es', password: 'Nueva5678$' } });
    expect(login.statusCode).toBe(200);
  });

  it('survives the database dropping its idle connections (a restart): logged, and the next request works', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/notes/active' })).statusCode).toBe(200);
    // Only this server's: other suites' connections to the same database (their admin clients) run
    // beside this one, and ending them once failed a suite in another worker.
    const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [schema]);
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((done) => setTimeout(done, 200));
    expect(lines.some((line) => line.includes('Conexión a PostgreSQL perdida'))).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/notes/active' })).statusCode).toBe(200);
  });
});
