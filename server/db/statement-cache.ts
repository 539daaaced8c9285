import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared. The app has a few hundred queries; `in (?, ?, ...)` lists vary more. */
export const STATEMENT_CACHE_SIZE = 500;

interface Kept {
  statement: BetterSqlite3.Statement;
  /** Asked for since the eviction pass last looked at it: it gets a second chance. */
  used: boolean;
}

/**
 * better-sqlite3 as Kysely's SqliteDialect sees it, with its prepared statements kept by SQL text.
 * Kysely's driver calls prepare() for every query, and preparing (parsing and planning the SQL) cost
 * about as much as running it: 16 % of the server's CPU under load. The same text always compiles to
 * the same statement, so when the cache is full one not asked for lately is simply forgotten
 * (better-sqlite3 finalizes it when collected, and all of them when the database closes). A hit only
 * marks its statement used (second-chance eviction): moving it to the end of the Map, as a strict
 * LRU does, cost a history page's four queries ~2 µs.
 */
export function withStatementCache(database: BetterSqlite3.Database, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, Kept>();
  /** Makes room for one: the oldest not used since it was last looked at goes; a used one moves to the end, unmarked. */
  const evictOne = () => {
    for (const [sql, kept] of statements) {
      statements.delete(sql);
      if (!kept.used) return;
      kept.used = false;
      statements.set(sql, kept);
    }
  };
  return {
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached) {
        // A statement still being iterated (Kysely's streamQuery) cannot run again until it is done.
        if (cached.statement.busy) return database.prepare(sql);
        cached.used = true;
        return cached.statement;
      }
      const statement = database.prepare(sql);
      if (statements.size >= capacity) evictOne();
      statements.set(sql, { statement, used: false });
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
