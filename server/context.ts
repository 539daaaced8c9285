import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import type { Mailer } from './mail/mailer.ts';
import type { AuthLimits } from './modules/auth/limits.ts';
import type { FlowCatalogue } from './modules/flows/catalogue.ts';
import type { RunLauncher } from './modules/runs/launcher.ts';

/** What route modules need from the app: the database, the clock and the outside world. */
export interface AppContext {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  /** Base URL of the web app, for links in emails (no trailing slash). */
  publicUrl: string;
  cookieSecure: boolean;
  loginRateLimit: { max: number; timeWindowMs: number };
  /** Password-guessing limits held in the database (modules/auth/guard.ts). */
  authLimits: AuthLimits;
  /** The flows this server offers (resources/flows, checked at start). */
  catalogue: FlowCatalogue;
  /** Starts runs as POST execution does (schedules use it) and tells when one has finished. */
  runs: RunLauncher;
  /** Days uploads and outputs are kept (FILE_RETENTION_DAYS); an output past them answers 410. */
  fileRetentionDays: number;
}
