import { join } from 'node:path';
import type { ServerConfig } from './app.ts';

export interface ListenConfig {
  port: number;
  host: string;
}

type Env = Record<string, string | undefined>;

function flag(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/**
 * Server settings from the environment: PORT (8081), HOST (127.0.0.1; 0.0.0.0 to listen on every
 * interface), DATA_DIR (./data, for the SQLite file) or DATABASE_URL (postgres://...), SMTP_URL and
 * SMTP_FROM, PUBLIC_URL, COOKIE_SECURE, ALLOWED_ORIGINS (comma-separated), TRUST_PROXY.
 */
export function configFromEnv(env: Env): { server: ServerConfig; listen: ListenConfig; dataDir: string | null } {
  const port = Number(env.PORT ?? 8081);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT no válido: ${env.PORT}`);
  const host = env.HOST?.trim() || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL?.trim();
  const usePostgres = databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(databaseUrl);
  const dataDir = usePostgres ? null : env.DATA_DIR?.trim() || './data';
  const publicUrl = env.PUBLIC_URL?.trim() || `http://${host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host}:${port}`;

  const server: ServerConfig = {
    database: usePostgres ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: join(dataDir ?? './data', 'autoasesor.sqlite') },
    logger: true,
    publicUrl,
    // Secure cookies by default when the public URL is https.
    cookieSecure: env.COOKIE_SECURE === undefined ? publicUrl.startsWith('https://') : flag(env.COOKIE_SECURE),
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    trustProxy: flag(env.TRUST_PROXY),
    ...(env.WEB_ROOT && { webRoot: env.WEB_ROOT }),
    ...(env.SMTP_URL && { smtp: { url: env.SMTP_URL, from: env.SMTP_FROM?.trim() || 'AutoAsesor <no-reply@autoasesor.es>' } }),
  };
  return { server, listen: { port, host }, dataDir };
}
