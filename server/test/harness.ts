import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import type { ServerConfig } from '../server-config.ts';
import type { DatabaseConfig } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import type { LinkEmail, MessageEmail } from '../mail/mailer.ts';
import { postgresTestDatabase, sqliteTestDatabase } from './test-databases.ts';

// Strong enough for the server's common-password check (modules/auth/password-strength.ts).
export const PASSWORD = 'Secreta-Nube7';

/**
 * The database the API suites run on: a SQLite file by default; PostgreSQL when the vitest project
 * 'server-pg' (vitest.config.ts, only when TEST_DATABASE_URL is set) sets AUTOASESOR_TEST_DB.
 */
export const testDatabaseKind: 'sqlite' | 'postgres' = process.env.AUTOASESOR_TEST_DB === 'postgres' && process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/**
 * What a server leaves in a database it has started on once: every test server's database starts as a
 * copy of it (test-databases.ts).
 */
async function startOnce(database: DatabaseConfig): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'autoasesor-template-'));
  try {
    const app = await buildApp({ ...baseConfig(dir), database });
    await app.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The configuration of a test server in `dir`, but its database and log. */
function baseConfig(dir: string): Omit<ServerConfig, 'database'> {
  return {
    webRoot: join(dir, 'no-web-build'),
    publicUrl: 'http://app.test',
    cookieSecure: false,
    allowedOrigins: [],
    logStream: { write: () => undefined },
    storageDir: join(dir, 'storage'),
  };
}

/** A logged message of the mailer's sendMessage. */
export interface MailedMessage {
  to: string;
  link: string | null;
  text: string;
  replyTo: string | null;
}

/** A real app on a fresh database (see testDatabaseKind) in its own temp dir, with its log lines kept for reading. */
export interface TestServer {
  app: FastifyInstance;
  dir: string;
  /** The database the app runs on, for suites that open their own connection to arrange rows. */
  database: DatabaseConfig;
  logLines: () => Array<Record<string, unknown>>;
  /** Links the server "emailed" (logged, since tests have no SMTP), oldest first. */
  mailedLinks: (purpose: LinkEmail['purpose']) => string[];
  /** Messages the server "emailed" to client companies (logged), oldest first. */
  mailedMessages: (purpose: MessageEmail['purpose']) => MailedMessage[];
  countRows: (table: keyof Database) => number;
  /** Several tables' row counts at once: a "nothing written" snapshot. */
  countTables: (tables: readonly (keyof Database)[]) => Record<string, number>;
  close: () => Promise<void>;
}

export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'autoasesor-server-test-'));
  const database =
    testDatabaseKind === 'postgres'
      ? await postgresTestDatabase(process.env.TEST_DATABASE_URL ?? '', process.env.AUTOASESOR_TEST_RUN ?? 'local', startOnce)
      : await sqliteTestDatabase(dir, startOnce);
  const lines: string[] = [];
  const app = await buildApp({
    ...baseConfig(dir),
    database: database.config,
    logStream: { write: (line) => lines.push(line) },
    ...overrides,
  }).catch(async (error: unknown) => {
    await database.release();
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
    mailedMessages: (purpose) =>
      logLines().flatMap((line) => {
        const mail = line.mail as { purpose?: string; to?: string; link?: string | null; text?: string; replyTo?: string | null } | undefined;
        return mail?.purpose === purpose && typeof mail.to === 'string' && typeof mail.text === 'string' ? [{ to: mail.to, link: mail.link ?? null, text: mail.text, replyTo: mail.replyTo ?? null }] : [];
      }),
    countRows: database.countRows,
    countTables: (tables) => {
      const counts = database.countTables(tables);
      return Object.fromEntries(tables.map((table, index) => [table, counts[index] ?? Number.NaN]));
    },
    // Idempotent: some suites close the same server in more than one afterEach.
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await database.release();
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
