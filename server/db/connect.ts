import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { withStatementCache } from './statement-cache.ts';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * Opens the database: embedded SQLite by default, Postgres for several server processes.
 * onIdleError hears a pooled Postgres connection dropped while idle (a database restart, an
 * administrator): unheard, pg raises it as an uncaught error and the process ends; the pool opens a
 * new connection on the next query anyway.
 */
export function connectDatabase(config: DatabaseConfig, onIdleError: (error: Error) => void = () => undefined): Kysely<Database> {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    pool.on('error', onIdleError);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const sqlite = new SqliteDatabase(config.file);
  // WAL lets readers run while a write is in progress; SQLite leaves foreign keys off unless asked.
  sqlite.pragma('journal_mode = WAL');
  // The server database holds accounts, sessions and (soon) the billing ledger: a commit we answered
  // 200 for must survive a power cut. In WAL mode synchronous=NORMAL only syncs at checkpoints, so
  // the last commits can vanish; FULL syncs the WAL on every commit. Measured on the dev machine:
  // ~45 µs → ~1.7 ms per commit (2,000 single-row inserts), i.e. still ~600 commits/s for one writer,
  // far above this server's load. A desktop task cache that can be rebuilt may stay NORMAL.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}
