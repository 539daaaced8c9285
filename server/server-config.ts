import type { DatabaseConfig } from './db/connect.ts';
import type { SmtpConfig } from './mail/mailer.ts';
import type { AltasUploadCaps } from './modules/altas/form-caps.ts';
import type { AppLogLimits } from './modules/applogs/service.ts';
import type { AuthLimits } from './modules/auth/limits.ts';
import type { GoogleSignInConfig } from './modules/auth/google-config.ts';
import type { BillingConfig } from './modules/billing/config.ts';
import type { FieDecoderOptions } from './modules/fie/decoder.ts';
import type { BuiltInFlow } from './modules/flows/catalogue.ts';
import type { MailProvidersConfig } from './modules/mail/types.ts';
import type { OnlineFormCaps } from './modules/onlineforms/messages.ts';
import type { RunsOptions } from './modules/runs/options.ts';
import type { SupportConfig } from './modules/support/config.ts';
import type { InspectorOptions } from './files/inspector.ts';

/** What buildApp (app.ts) is given: read from the environment by env.ts, or set by tests and scripts. */
export interface ServerConfig {
  database: DatabaseConfig;
  /** The built renderer, served at '/' (default dist/renderer). */
  webRoot?: string;
  logger?: boolean;
  /** info by default: one summary line per failed (4xx/5xx) or slow request, not one per hit. */
  logLevel?: LogLevel;
  /** Where log lines go when logging (a rotated LOG_FILE; tests read emailed links from it). */
  logStream?: { write(line: string): void };
  smtp?: SmtpConfig;
  /** Base URL of the web app for links in emails. */
  publicUrl: string;
  cookieSecure: boolean;
  /** Origins trusted besides the request's own host (e.g. the desktop app's dev server). */
  allowedOrigins: string[];
  /** Behind a load balancer: trust X-Forwarded-For from this many hops or these proxy IPs/CIDRs. */
  trustProxy?: false | number | string[];
  now?: () => Date;
  /** Create the demo account on an empty database (never when NODE_ENV is production). */
  demoAccount?: boolean;
  /** Whether the demo's successful runs get their files from their robots after start (default yes; db/demo-files.ts). */
  demoFiles?: boolean;
  loginRateLimit?: { max: number; timeWindowMs: number };
  /** Sign-ups per IP per hour (SIGNUPS_PER_IP_HOUR; 50). */
  signupsPerIpHour?: number;
  /** Per-account, per-IP and reset-mail limits (defaults in modules/auth/limits.ts). */
  authLimits?: Partial<AuthLimits>;
  /** Budget and pruning of public app logs (defaults in modules/applogs/service.ts). */
  appLogs?: Partial<AppLogLimits>;
  /** Where /help sends users (SUPPORT_EMAIL; soporte@autoasesor.es by default). */
  support?: SupportConfig;
  /** The flows offered (default: resources/flows). Tests inject their own with flowsModule. */
  flows?: readonly BuiltInFlow[];
  /** URL of a module exporting `builtInFlows` that run workers load robots from, when `flows` are not the built-ins. */
  flowsModule?: string;
  /** Uploads and run outputs (STORAGE_DIR; default data/storage). */
  storageDir?: string;
  /** Upload inspections (issue 18): at once (2), time limit (120 s) and heap (2048 MB) of each one's process. */
  inspection?: Partial<InspectorOptions>;
  /** FIE uploads' decoding processes: at once (2), time limit (120 s), heap (1024 MB), entries per batch (500). */
  fieDecoder?: Partial<FieDecoderOptions>;
  /** Run execution: RUN_CONCURRENCY (2), worker memory, claim lease (RUN_LEASE_MS, 60 s: a server's or a machine's), stop grace. */
  runs?: Partial<Omit<RunsOptions, 'flowsModule'>>;
  /** How often a machine's last call is written at most (5 s); the bad-input sweep marks its machine online once and no more. */
  deviceTouchEveryMs?: number;
  /** How often this process looks for due schedules of server flows (5 s); 0: never (tests that drive it). */
  scheduleRunnerIntervalMs?: number;
  /**
   * Uploads and outputs are deleted `days` after they were stored (FILE_RETENTION_DAYS, 30), by a sweep
   * every `sweepIntervalMs` (1 h; the first a minute after start); 0: never (tests that drive it).
   */
  fileRetention?: { days?: number; sweepIntervalMs?: number };
  /** How often this process checks whether a firm's daily DEHÚ digest is due (10 min); 0: never (tests that drive it). */
  notificationsDigestIntervalMs?: number;
  /** Mail providers' endpoints and OAuth clients (MAIL_*; modules/mail/providers.ts). Unset: the real endpoints, no client offered. */
  mail?: MailProvidersConfig;
  /**
   * The key that seals OAuth tokens at rest: SECRETS_KEY (base64 of 32 bytes; required when several
   * processes share PostgreSQL), else a key file made on first use. Unset (tests): a key for this process only.
   */
  secrets?: { key?: string; keyFile?: string };
  /** How often this process queues runs' result mails and notices and sends the mail outbox (5 s); 0: never (tests that drive it). */
  mailOutboxIntervalMs?: number;
  /** Stripe (STRIPE_*; modules/billing/config.ts). Unset or null: no online payments. */
  billing?: BillingConfig | null;
  /** How often this process sends usage past a plan's limit to Stripe's meter (10 s); 0: never (tests that drive it). */
  billingUsageIntervalMs?: number;
  /** How often this process reads the plans from Stripe's prices (1 h, and once at start); 0: never. */
  billingPlansIntervalMs?: number;
  /**
   * The altas form's upload caps (modules/altas/form-caps.ts) and how often ended form sessions and
   * their unsent files are purged (10 min, and a minute after start); 0: never (tests that drive it).
   */
  altas?: { uploadCaps?: Partial<AltasUploadCaps>; purgeIntervalMs?: number };
  /** Sign in with Google (GOOGLE_SIGNIN_*; modules/auth/google-config.ts). Unset or null: not offered. */
  google?: GoogleSignInConfig | null;
  /** Online forms' caps on the public side (modules/onlineforms/messages.ts): rate, daily submissions, bytes, link mails. */
  onlineForms?: Partial<OnlineFormCaps>;
}

export const DEFAULT_RUNS_OPTIONS: Omit<RunsOptions, 'flowsModule'> = {
  concurrency: 2,
  memoryMb: 1_024,
  leaseMs: 60_000,
  stopGraceMs: 1_000,
  // RUN_CONCURRENCY's unless set (buildApp).
  runningPerFirm: 2,
  // A month of a large firm's daily robots, queued at once; beyond it one firm is flooding the queue.
  queuedPerFirm: 2_000,
  resendWaitingAfterMs: 60_000,
};

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
