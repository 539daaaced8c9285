import type { Kysely } from 'kysely';

/**
 * Mail accounts and the outbox (issue 25): the mailboxes a firm linked (tokens sealed with the server's
 * secrets key), the authorizations under way (state and PKCE verifier, ten minutes), and every message
 * robots cause, with its delivery. Times are ISO text, so they sort and compare as text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    /** 'web' | 'desktop': the OAuth client it was linked through, which must refresh it. */
    .addColumn('client_kind', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('access_expires_at', 'text')
    /** 'linked' | 'needs_relink'. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('problem', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addUniqueConstraint('mail_accounts_unique', ['group_id', 'provider', 'email'])
    .execute();

  await db.schema
    .createTable('mail_oauth_states')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** Who it is for or about (the run's launcher, the account's owner). */
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    /** One message per cause ('run-result:<runId>', 'run-notice:<runId>', …): a cause never mails twice. */
    .addColumn('cause_key', 'text', (c) => c.notNull().unique())
    .addColumn('run_id', 'text', (c) => c.references('flow_runs.id').onDelete('cascade'))
    /** 'result' | 'notice' | 'account'. */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The linked account it goes from; null: the server's SMTP. */
    .addColumn('account_id', 'text', (c) => c.references('mail_accounts.id').onDelete('set null'))
    /** 'google' | 'microsoft' | 'smtp'. */
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text')
    /** JSON array of addresses. */
    .addColumn('to_addresses', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('sender_name', 'text')
    /** JSON array of { fileId, name, size } (stored_files of the run). */
    .addColumn('attachments', 'text', (c) => c.notNull())
    /** 'pending' | 'sending' | 'sent' | 'failed' | 'unknown' (shared/api/mail.ts). */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('provider_message_id', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_outbox_run_idx').on('mail_outbox').columns(['run_id']).execute();
  // The producers look at recently finished runs for results to mail and failures to tell.
  await db.schema.createIndex('flow_runs_finished_idx').on('flow_runs').columns(['finished_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('flow_runs_finished_idx').execute();
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('mail_oauth_states').execute();
  await db.schema.dropTable('mail_accounts').execute();
}
