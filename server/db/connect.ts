import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter, sql } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Database } from './schema.ts';
import { directReadDialect } from './direct-reads.ts';
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
    // pg is loaded only here (a SQLite server never reads its ~100 files at start); required, not imported, as this function is synchronous.
    const { Pool } = createRequire(import.meta.url)('pg') as typeof pg;
    const pool = new Pool({ connectionString: config.url, max: 10 });
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
  const { dialect, register } = directReadDialect(withStatementCache(sqlite));
  const db = new Kysely<Database>({ dialect });
  register(db);
  return db;
}

/**
 * Runs a start's own writes (migrations, the catalogue and demo seeds; buildApp wraps them once) on SQLite with synchronous=NORMAL, then sets
 * FULL back. On a new database they are a hundred or so commits, and FULL syncs the WAL on every one:
 * 0.3-0.6 s of a cold start here, against ~0.1 s. None of them has been answered to anyone yet and all
 * are idempotent: a power cut that loses the last of them (the WAL keeps commits in order, so never a
 * migration's record without its changes) only means the next start writes them again. The first
 * commit after, with FULL again, syncs the WAL and everything written before it. Postgres: as is.
 */
export async function withStartupWrites<T>(db: Kysely<Database>, writes: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return writes();
  await sql`pragma synchronous = NORMAL`.execute(db);
  try {
    return await writes();
  } finally {
    await sql`pragma synchronous = FULL`.execute(db);
  }
}
