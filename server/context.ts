import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import type { Mailer } from './mail/mailer.ts';

/**
 * The infrastructure every module shares: the database, the clock, the mailer and settings read at
 * start. It names no module: a module that needs another's capability (the flow catalogue, starting
 * runs, the password guard) gets it as a parameter of its register function, wired in app.ts.
 */
export interface AppContext {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  /** Base URL of the web app, for links in emails (no trailing slash). */
  publicUrl: string;
  cookieSecure: boolean;
  loginRateLimit: { max: number; timeWindowMs: number };
  /** Sign-ups one IP may make per hour (SIGNUPS_PER_IP_HOUR, 50): an office behind one address onboards a few people, a bot thousands. */
  signupsPerIpHour: number;
  /** Days uploads and outputs are kept (FILE_RETENTION_DAYS); an output past them answers 410. */
  fileRetentionDays: number;
}
