import type { Kysely } from 'kysely';

/**
 * Auth abuse counters kept in the database, so an attacker cannot flush them (an in-memory LRU
 * evicted a victim's key after 5,100 junk logins) and every server process sharing the database
 * sees the same counts. Times here are epoch milliseconds ('bigint'), so the limiter can do its
 * window and back-off arithmetic inside one atomic upsert on SQLite and PostgreSQL alike.
 *
 * Sessions also remember their successor (sealed with the rotated refresh token), so a replay of
 * that token within the grace window gets the same successor instead of a new session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_throttle_window_start_idx').on('auth_throttle').column('window_start').execute();

  await db.schema.alterTable('sessions').addColumn('successor_sealed', 'text').execute();
  await db.schema.createIndex('sessions_refresh_expires_at_idx').on('sessions').column('refresh_expires_at').execute();
  await db.schema.createIndex('user_tokens_expires_at_idx').on('user_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('user_tokens_expires_at_idx').execute();
  await db.schema.dropIndex('sessions_refresh_expires_at_idx').execute();
  await db.schema.alterTable('sessions').dropColumn('successor_sealed').execute();
  await db.schema.dropTable('auth_throttle').execute();
}
