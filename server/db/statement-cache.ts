import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared. The app has a few hundred queries; `in (?, ?, ...)` lists vary more. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 as Kysely's SqliteDialect sees it, with its prepared statements kept by SQL text.
 * Kysely's driver calls prepare() for every query, and preparing (parsing and planning the SQL) cost
 * about as much as running it: 16 % of the server's CPU under load. The same text always compiles to
 * the same statement, so the least recently used ones are simply forgotten when the cache is full
 * (better-sqlite3 finalizes them when collected, and all of them when the database closes).
 */
export function withStatementCache(database: BetterSqlite3.Database, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql) {
      const cached = statements.get(sql);
      // A statement still being iterated (Kysely's streamQuery) cannot run again until it is done.
      if (cached?.busy) return database.prepare(sql);
      if (cached) {
        // A Map iterates in insertion order: moving each hit to the end keeps the least recent first.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) {
        const leastRecent = statements.keys().next();
        if (!leastRecent.done) statements.delete(leastRecent.value);
      }
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
