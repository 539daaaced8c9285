import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type ServerConfig } from '../app.ts';
import type { DatabaseConfig } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

// Strong enough for the server's common-password check (modules/auth/password-strength.ts).
export const PASSWORD = 'Secreta-Nube7';

/**
 * The database the API suites run on: a SQLite file by default; PostgreSQL when the vitest project
 * 'server-pg' (vitest.config.ts, only when TEST_DATABASE_URL is set) sets AUTOASESOR_TEST_DB.
 */
export const testDatabaseKind: 'sqlite' | 'postgres' = process.env.AUTOASESOR_TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

interface TestDatabase {
  config: DatabaseConfig;
  countRows: (table: keyof Database) => number;
  /** Opens the reader once the app has migrated. */
  open: () => void;
  drop: () => Promise<void>;
}

function sqliteTestDatabase(dir: string): TestDatabase {
  const file = join(dir, 'test.sqlite');
  let reader: SqliteDatabase.Database | undefined;
  return {
    config: { kind: 'sqlite', file },
    countRows: (table) => (reader?.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n,
    open: () => void (reader = new SqliteDatabase(file, { readonly: true })),
    drop: async () => void reader?.close(),
  };
}

/**
 * A fresh database per server on the TEST_DATABASE_URL server, dropped on close. Not a schema: Kysely's
 * migrator looks for its own tables in every schema of a database, so suites migrating side by side
 * in one database trip over each other's kysely_migration tables.
 */
async function postgresTestDatabase(url: string): Promise<TestDatabase> {
  const name = `autoasesor_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: own.toString() },
    // countRows is synchronous (suites call it inline), and pg is not: ask psql, which comes with PostgreSQL.
    countRows: (table) => Number(execFileSync('psql', [own.toString(), '-tAXc', `select count(*) from ${table}`], { encoding: 'utf8' }).trim()),
    open: () => undefined,
    drop: async () => {
      // pg's pool.end() resolves before the server has let go of every backend; a forced drop then kills
      // them and the pool's clients throw uncaught errors. Wait (bounded) for them to be gone first.
      for (let waited = 0; waited < 5_000; waited += 50) {
        const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
        if (Number(rows[0]?.n) === 0) break;
        await new Promise((done) => setTimeout(done, 50));
      }
      // An autovacuum worker may be in the new database: it belongs to the superuser, so the forced drop
      // may not end it (42501) and the database stays in use (55006). It finishes within moments: retry.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await admin.query(`drop database if exists ${name} with (force)`);
          break;
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (attempt >= 40 || (code !== '42501' && code !== '55006')) throw error;
          await new Promise((done) => setTimeout(done, 250));
        }
      }
      await admin.end();
    },
  };
}

/** A real app on a fresh database (see testDatabaseKind) in its own temp dir, with its log lines kept for reading. */
export interface TestServer {
  app: FastifyInstance;
  dir: string;
  /** The database the app runs on, for suites that open their own connection to arrange rows. */
  database: DatabaseConfig;
  logLines: () => Array<Record<string, unknown>>;
  /** Links the server "emailed" (logged, since tests have no SMTP), oldest first. */
  mailedLinks: (purpose: 'reset_password' | 'email_validation') => string[];
  countRows: (table: keyof Database) => number;
  close: () => Promise<void>;
}

export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'autoasesor-server-test-'));
  const database = testDatabaseKind === 'postgres' ? await postgresTestDatabase(process.env.TEST_DATABASE_URL ?? '') : sqliteTestDatabase(dir);
  const lines: string[] = [];
  const app = await buildApp({
    database: database.config,
    webRoot: join(dir, 'no-web-build'),
    publicUrl: 'http://app.test',
    cookieSecure: false,
    allowedOrigins: [],
    logStream: { write: (line) => lines.push(line) },
    storageDir: join(dir, 'storage'),
    ...overrides,
  }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  database.open();
  let closing: Promise<void> | undefined;
  const logLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    app,
    dir,
    database: database.config,
    logLines,
    mailedLinks: (purpose) =>
      logLines().flatMap((line) => {
        const mail = line.mail as { purpose?: string; link?: string } | undefined;
        return mail?.purpose === purpose && mail.link ? [mail.link] : [];
      }),
    countRows: database.countRows,
    // Idempotent: some suites close the same server in more than one afterEach.
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await database.drop();
        await rm(dir, { recursive: true, force: true });
      })()),
  };
}

type Payload = NonNullable<InjectOptions['payload']>;

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A minimal browser cookie jar for app.inject: keeps Set-Cookie values, honours their Path and
 * deletions, and sends them back on the next request.
 */
export class CookieJar {
  readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const path = options.url.split('?')[0] ?? '/';
    const cookieHeader = [...this.cookies]
      .filter(([, cookie]) => path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
    const response = await this.app.inject({ ...options, headers: { ...options.headers, ...(cookieHeader && { cookie: cookieHeader }) } });
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, { value: cookie.value, path: cookie.path ?? '/' });
    }
    return response;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: Payload) {
    return this.request({ method: 'POST', url, ...(payload !== undefined && { payload }) });
  }

  put(url: string, payload: Payload) {
    return this.request({ method: 'PUT', url, payload });
  }

  patch(url: string, payload: Payload) {
    return this.request({ method: 'PATCH', url, payload });
  }

  value(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }
}

/** Registers a fresh user in a new jar (signed in), and returns the jar. */
export async function registerUser(app: FastifyInstance, email: string, name = 'Ana Pérez'): Promise<CookieJar> {
  const jar = new CookieJar(app);
  const response = await jar.post('/api/users', { name, email, password: PASSWORD });
  if (response.statusCode !== 201) throw new Error(`registro fallido: ${response.statusCode} ${response.body}`);
  return jar;
}
