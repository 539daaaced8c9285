import type { Kysely } from 'kysely';

/**
 * Accounts, sessions, preferences, logs, notes and subscriptions. Written with the schema builder
 * and portable types only (text, integer, double precision) so it runs on SQLite and Postgres.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('restrict'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('email_validated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('used_slans', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_group_id_idx').on('users').column('group_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('access_hash', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('access_expires_at', 'text', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_family_id_idx').on('sessions').column('family_id').execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_tokens_user_id_idx').on('user_tokens').column('user_id').execute();

  await db.schema
    .createTable('preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('stack', 'text')
    .addColumn('url', 'text')
    .addColumn('context', 'text')
    .addColumn('client_app', 'text')
    .addColumn('client_version', 'text')
    .addColumn('client_language', 'text')
    // Logs outlive the accounts they mention.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('app_logs_created_at_idx').on('app_logs').column('created_at').execute();

  await db.schema
    .createTable('release_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ref', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('usage_limit', 'integer', (c) => c.notNull())
    .addColumn('base_price', 'double precision', (c) => c.notNull())
    .addColumn('extra_usage_price', 'double precision', (c) => c.notNull())
    .addColumn('trial_days', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().unique().references('groups.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id').onDelete('restrict'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'text', (c) => c.notNull())
    .addColumn('cancel_at', 'text')
    .addColumn('used_slans', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['subscriptions', 'plans', 'release_notes', 'app_logs', 'preferences', 'user_tokens', 'sessions', 'users', 'groups']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
