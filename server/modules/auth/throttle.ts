import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * A counter with a fixed window, an optional back-off and a block, kept in the auth_throttle table
 * (migration 0002): an attacker cannot flush it (an in-memory LRU forgot a victim after 5,100 junk
 * keys), and every server process on the same database shares it.
 */
export interface ThrottleRule {
  /** Hits are counted from the first one in a window of this length. */
  windowMs: number;
  /** Hits allowed back to back; after each further hit the next one must wait stepMs × the excess. */
  freeHits: number;
  stepMs: number;
  /** The hit that reaches this count blocks the key for lockMs. */
  lockAt: number;
  lockMs: number;
}

export type ThrottleResult =
  | { allowed: true; hits: number; /** This hit started a lock (tell the owner once). */ lockStarted: boolean }
  | { allowed: false; retryAt: number };

/**
 * Counts one hit for the key, unless it is blocked. One statement (insert … on conflict do update …
 * where … returning), so concurrent requests and processes cannot both slip past a limit: the row
 * is locked (PostgreSQL) or the write serialised (SQLite), and the where clause is re-checked.
 */
export async function hitThrottle(db: Kysely<Database>, key: string, rule: ThrottleRule, nowMs: number): Promise<ThrottleResult> {
  const now = sql`cast(${nowMs} as bigint)`;
  const expired = sql`auth_throttle.window_start <= cast(${nowMs - rule.windowMs} as bigint)`;
  const hits = sql`(case when ${expired} then 1 else auth_throttle.hits + 1 end)`;
  const blockedUntil = (count: typeof hits) => sql`(case
      when ${count} >= ${rule.lockAt} then cast(${nowMs + rule.lockMs} as bigint)
      when ${count} > ${rule.freeHits} then ${now} + (${count} - ${rule.freeHits}) * cast(${rule.stepMs} as bigint)
      else cast(0 as bigint) end)`;
  const { rows } = await sql<{ hits: number | string; blocked_until: number | string }>`
    insert into auth_throttle (key, hits, window_start, blocked_until)
    values (${key}, 1, ${now}, ${blockedUntil(sql`1`)})
    on conflict (key) do update set
      hits = ${hits},
      window_start = case when ${expired} then ${now} else auth_throttle.window_start end,
      blocked_until = ${blockedUntil(hits)}
    where auth_throttle.blocked_until <= ${now}
    returning hits, blocked_until`.execute(db);
  const row = rows[0];
  if (row) {
    const count = Number(row.hits);
    return { allowed: true, hits: count, lockStarted: count === rule.lockAt };
  }
  const blocked = await db.selectFrom('auth_throttle').select('blocked_until').where('key', '=', key).executeTakeFirst();
  return { allowed: false, retryAt: Math.max(Number(blocked?.blocked_until ?? nowMs), nowMs + 1000) };
}

/** Forgets keys (a successful login clears its account's failures). */
export async function clearThrottle(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('auth_throttle').where('key', 'in', keys).execute();
}

/** Deletes counters whose window and block are both over (they would restart from zero anyway). */
export async function purgeThrottle(db: Kysely<Database>, nowMs: number, longestWindowMs: number): Promise<number> {
  const result = await db
    .deleteFrom('auth_throttle')
    .where('window_start', '<=', nowMs - longestWindowMs)
    .where('blocked_until', '<=', nowMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
