import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type ServerConfig } from '../app.ts';
import type { Database } from '../db/schema.ts';

// Strong enough for the server's common-password check (modules/auth/password-strength.ts).
export const PASSWORD = 'Secreta-Nube7';

/** A real app on a fresh SQLite file in its own temp dir, with its log lines kept for reading. */
export interface TestServer {
  app: FastifyInstance;
  dir: string;
  logLines: () => Array<Record<string, unknown>>;
  /** Links the server "emailed" (logged, since tests have no SMTP), oldest first. */
  mailedLinks: (purpose: 'reset_password' | 'email_validation') => string[];
  countRows: (table: keyof Database) => number;
  close: () => Promise<void>;
}

export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'autoasesor-server-test-'));
  const file = join(dir, 'test.sqlite');
  const lines: string[] = [];
  const app = await buildApp({
    database: { kind: 'sqlite', file },
    webRoot: join(dir, 'no-web-build'),
    publicUrl: 'http://app.test',
    cookieSecure: false,
    allowedOrigins: [],
    logStream: { write: (line) => lines.push(line) },
    ...overrides,
  });
  const reader = new SqliteDatabase(file, { readonly: true });
  const logLines = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    app,
    dir,
    logLines,
    mailedLinks: (purpose) =>
      logLines().flatMap((line) => {
        const mail = line.mail as { purpose?: string; link?: string } | undefined;
        return mail?.purpose === purpose && mail.link ? [mail.link] : [];
      }),
    countRows: (table) => (reader.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n,
    close: async () => {
      reader.close();
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
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
