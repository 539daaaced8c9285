import { isIP } from 'node:net';
import { join } from 'node:path';
import type { LogLevel, ServerConfig } from './server-config.ts';
import { mailProvidersFromEnv } from './modules/mail/providers.ts';
import { googleSignInFromEnv } from './modules/auth/google-config.ts';
import { DEFAULT_FILE_RETENTION_DAYS, MAX_FILE_RETENTION_DAYS } from './modules/retention/retention.ts';
import { supportConfigFromEnv } from './modules/support/config.ts';
import { billingConfigFromEnv } from './modules/billing/config.ts';

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

const PROXY_ADVICE = 'indica las IP o redes (CIDR) de tus proxies separadas por comas, o el número de saltos (p. ej. 1)';

/** One proxy address: an IP, an IP/prefix network, or proxy-addr's named ranges (loopback...). */
function isProxyAddress(item: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * Which peers may tell us the client IP in X-Forwarded-For. Trusting every peer (the old `1`) let any
 * client spoof its address and dodge per-IP limits, so this takes either a hop count (`1`: the one
 * proxy in front of us appends the real address; earlier entries are the client's own and ignored)
 * or the proxies' addresses/CIDRs. Off when unset or `0`.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const text = value?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(text)) return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error(`TRUST_PROXY no válido: ${value} saltos son demasiados; ${PROXY_ADVICE}`);
    return hops;
  }
  if (['true', 'yes', 'all', '*'].includes(text)) {
    throw new Error(`TRUST_PROXY no válido: "${value}" confiaría en cualquier cliente; ${PROXY_ADVICE}`);
  }
  const items = list(text);
  const bad = items.filter((item) => !isProxyAddress(item));
  if (bad.length > 0) throw new Error(`TRUST_PROXY no válido: ${bad.join(', ')} no es una IP ni una red CIDR; ${PROXY_ADVICE}`);
  return items;
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseLogLevel(value: string | undefined): LogLevel {
  const text = value?.trim().toLowerCase() || 'info';
  const level = LOG_LEVELS.find((known) => known === text);
  if (!level) throw new Error(`LOG_LEVEL no válido: ${value} (usa ${LOG_LEVELS.join(', ')})`);
  return level;
}

/** A whole number setting within bounds, or its default when unset; anything else stops the server naming it. */
function parseWhole(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  const text = value?.trim() || String(fallback);
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < min || number > max) throw new Error(`${name} no válido: ${value} (un número entero entre ${min} y ${max.toLocaleString('es-ES')})`);
  return number;
}

/** RUN_CONCURRENCY: runs one server process executes at once (each in its own child process). */
const parseRunConcurrency = (value: string | undefined) => parseWhole('RUN_CONCURRENCY', value, 2, 1, 64);
/** RUN_FIRM_CONCURRENCY: runs of one firm executing at once over every server process. */
const parseFirmConcurrency = (value: string | undefined) => parseWhole('RUN_FIRM_CONCURRENCY', value, 1, 1, 1_000);
/** RUN_FIRM_QUEUE: runs of one firm waiting at once; a launch past it gets 429. */
const parseFirmQueue = (value: string | undefined) => parseWhole('RUN_FIRM_QUEUE', value, 2_000, 1, 1_000_000);
/** SIGNUPS_PER_IP_HOUR: accounts one IP address may register per hour. */
const parseSignupsPerIpHour = (value: string | undefined) => parseWhole('SIGNUPS_PER_IP_HOUR', value, 50, 1, 100_000);
/** FILE_RETENTION_DAYS: whole days uploads and run outputs are kept before the sweeper deletes them. */
const parseFileRetentionDays = (value: string | undefined) => parseWhole('FILE_RETENTION_DAYS', value, DEFAULT_FILE_RETENTION_DAYS, 1, MAX_FILE_RETENTION_DAYS);

/**
 * RUN_LEASE_MS: how long a run's claim holds without renewal, a server process's or a machine's (60 s
 * by default). A run whose holder stops answering is closed as 'Robot interrumpido' (299) soon after;
 * e2e sets a few seconds so a killed agent's run closes quickly.
 */
function parseRunLeaseMs(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 1_000 || ms > 3_600_000) throw new Error(`RUN_LEASE_MS no válido: ${value} (milisegundos, entre 1000 y 3600000)`);
  return ms;
}

/**
 * Server settings from the environment: PORT (8081), HOST (127.0.0.1; 0.0.0.0 to listen on every
 * interface), DATA_DIR (./data, for the SQLite file) or DATABASE_URL (postgres://...), SMTP_URL and
 * SMTP_FROM, PUBLIC_URL, COOKIE_SECURE, ALLOWED_ORIGINS (comma-separated), TRUST_PROXY, LOG_LEVEL
 * (info), LOG_FILE (a size-rotated file instead of stdout), SUPPORT_EMAIL, STORAGE_DIR (uploads and
 * run outputs; <DATA_DIR>/storage), RUN_CONCURRENCY (2), RUN_FIRM_CONCURRENCY (RUN_CONCURRENCY's), RUN_FIRM_QUEUE (2000)
 * RUN_LEASE_MS (60000), FILE_RETENTION_DAYS (30), SECRETS_KEY (base64 of 32 bytes sealing OAuth tokens;
 * required with several processes on PostgreSQL, else <DATA_DIR>/secrets.key is made on first use) and
 * the mail providers' MAIL_GOOGLE_* / MAIL_MICROSOFT_* (endpoints, defaulting to the real ones, and
 * OAuth client ids and secrets; listed in modules/mail/providers.ts); Sign in with Google's GOOGLE_SIGNIN_*
 * (modules/auth/google-config.ts); Stripe's STRIPE_SECRET_KEY,
 * STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE and STRIPE_METER_EVENT (modules/billing/config.ts).
 */
export function configFromEnv(env: Env): { server: ServerConfig; listen: ListenConfig; dataDir: string | null; logFile: string | null } {
  const port = Number(env.PORT ?? 8081);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT no válido: ${env.PORT}`);
  const host = env.HOST?.trim() || '127.0.0.1';
  const databaseUrl = env.DATABASE_URL?.trim();
  const usePostgres = databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(databaseUrl);
  const dataDir = usePostgres ? null : env.DATA_DIR?.trim() || './data';
  const leaseMs = parseRunLeaseMs(env.RUN_LEASE_MS);
  const publicUrl = env.PUBLIC_URL?.trim() || `http://${host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host}:${port}`;

  const server: ServerConfig = {
    database: usePostgres ? { kind: 'postgres', url: databaseUrl } : { kind: 'sqlite', file: join(dataDir ?? './data', 'autoasesor.sqlite') },
    logger: true,
    logLevel: parseLogLevel(env.LOG_LEVEL),
    publicUrl,
    // Secure cookies by default when the public URL is https.
    cookieSecure: env.COOKIE_SECURE === undefined ? publicUrl.startsWith('https://') : flag(env.COOKIE_SECURE),
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    support: supportConfigFromEnv(env),
    billing: billingConfigFromEnv(env),
    signupsPerIpHour: parseSignupsPerIpHour(env.SIGNUPS_PER_IP_HOUR),
    // Several server processes (PostgreSQL) must all see one storage folder: a shared volume.
    storageDir: env.STORAGE_DIR?.trim() || join(dataDir ?? './data', 'storage'),
    runs: {
      concurrency: parseRunConcurrency(env.RUN_CONCURRENCY),
      ...(env.RUN_FIRM_CONCURRENCY !== undefined && { runningPerFirm: parseFirmConcurrency(env.RUN_FIRM_CONCURRENCY) }),
      ...(env.RUN_FIRM_QUEUE !== undefined && { queuedPerFirm: parseFirmQueue(env.RUN_FIRM_QUEUE) }),
      ...(leaseMs !== undefined && { leaseMs }),
    },
    fileRetention: { days: parseFileRetentionDays(env.FILE_RETENTION_DAYS) },
    mail: mailProvidersFromEnv(env),
    google: googleSignInFromEnv(env),
    secrets: { ...(env.SECRETS_KEY?.trim() && { key: env.SECRETS_KEY.trim() }), keyFile: join(dataDir ?? './data', 'secrets.key') },
    ...(env.WEB_ROOT && { webRoot: env.WEB_ROOT }),
    ...(env.SMTP_URL && { smtp: { url: env.SMTP_URL, from: env.SMTP_FROM?.trim() || 'AutoAsesor <no-reply@autoasesor.es>' } }),
  };
  return { server, listen: { port, host }, dataDir, logFile: env.LOG_FILE?.trim() || null };
}
