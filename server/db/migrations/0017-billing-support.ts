import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue 26: paying through Stripe, the credit ledger, support tickets and colleagues.
 *
 * - plans learn their Stripe prices (base and metered extra usage); subscriptions their Stripe
 *   customer, subscription, schedule and the plan of the next phase. Webhooks are the source of truth:
 *   every event is kept by id (billing_events) so a replay changes nothing twice.
 * - billing_profiles: the name, NIF/CIF and address printed on invoices. billing_invoices: what the
 *   webhooks said of each invoice. billing_usage_reports: one row per run that went past the limit,
 *   reported to Stripe once (its identifier is the run). credit_grants: the slans a period gave.
 * - support_tickets, support_messages, support_attachments: a firm's questions and the answers.
 * - users.role ('owner' | 'member'), users.support_agent (the server's support team), users.disabled_at
 *   (a colleague the owner removed); colleague_invitations: single-use, expiring links to join a firm.
 * Times are ISO text; money in cents (integers) as Stripe counts it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').addColumn('stripe_price_id', 'text').execute();
  await db.schema.alterTable('plans').addColumn('stripe_extra_price_id', 'text').execute();
  /** 1 while Stripe offers the plan (or, without Stripe, the seed lists it). */
  await db.schema.alterTable('plans').addColumn('available', 'integer', (c) => c.notNull().defaultTo(1)).execute();

  for (const column of ['stripe_customer_id', 'stripe_subscription_id', 'stripe_schedule_id', 'next_plan_id', 'current_period_start', 'payment_failed_at', 'stripe_synced_at']) {
    await db.schema.alterTable('subscriptions').addColumn(column, 'text').execute();
  }
  await db.schema.createIndex('subscriptions_stripe_customer_idx').on('subscriptions').column('stripe_customer_id').execute();
  await db.schema.createIndex('subscriptions_stripe_subscription_idx').on('subscriptions').column('stripe_subscription_id').execute();

  await db.schema
    .createTable('billing_profiles')
    .addColumn('group_id', 'text', (c) => c.primaryKey().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('address_line1', 'text', (c) => c.notNull())
    .addColumn('address_line2', 'text')
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('province', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    /** The object the event is about (sub_…, in_…, cs_…). */
    .addColumn('object_id', 'text')
    /** Stripe's `created`, seconds since the epoch. */
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();

  await db.schema
    .createTable('billing_invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('number', 'text')
    /** Stripe's: draft, open, paid, uncollectible, void. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('amount_paid', 'integer', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('hosted_invoice_url', 'text')
    .addColumn('invoice_pdf', 'text')
    /** Set when a payment attempt failed and nothing was paid since. */
    .addColumn('payment_failed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_invoices_group_idx').on('billing_invoices').columns(['group_id', 'created_at']).execute();

  await db.schema
    .createTable('billing_usage_reports')
    .addColumn('run_id', 'text', (c) => c.primaryKey().references('flow_runs.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** Slans of this run past the plan's limit, and what is sent to the meter: thousandths, a whole number. */
    .addColumn('slans', 'double precision', (c) => c.notNull())
    .addColumn('milli_slans', 'integer', (c) => c.notNull())
    /** € per slan of the plan when the run closed: the ledger prices past periods as they were billed. */
    .addColumn('extra_usage_price', 'double precision', (c) => c.notNull())
    /** 'pending' | 'sent' | 'failed' (no Stripe customer or a refusal that retrying cannot mend). */
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('reported_at', 'text')
    .execute();
  await db.schema.createIndex('billing_usage_reports_due_idx').on('billing_usage_reports').columns(['state', 'next_attempt_at']).execute();

  await db.schema
    .createTable('credit_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('plan_name', 'text', (c) => c.notNull())
    .addColumn('slans', 'double precision', (c) => c.notNull())
    /** 'trial' | 'period': the trial's slans, or a paid period's included slans. */
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('credit_grants_period_unique', ['group_id', 'period_start'])
    .execute();

  await db.schema
    .createTable('support_tickets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.references('flow_runs.id').onDelete('set null'))
    /** 'open' (waiting for support) | 'answered' (waiting for the user) | 'closed'. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Answers the user has not read yet, and the user's messages support has not read. */
    .addColumn('user_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('support_unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_tickets_group_idx').on('support_tickets').columns(['group_id', 'updated_at']).execute();
  await db.schema.createIndex('support_tickets_status_idx').on('support_tickets').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('support_tickets.id').onDelete('cascade'))
    /** 'user' | 'support'. */
    .addColumn('author_kind', 'text', (c) => c.notNull())
    .addColumn('author_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    /** 'app' | 'email'. */
    .addColumn('via', 'text', (c) => c.notNull())
    /** An answer that arrived by email: its Message-ID, so a redelivered message is kept once. */
    .addColumn('email_message_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_messages_ticket_idx').on('support_messages').columns(['ticket_id', 'created_at']).execute();

  await db.schema
    .createTable('support_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('support_messages.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_attachments_message_idx').on('support_attachments').column('message_id').execute();

  // Used slans are fractional (cost = units × ratio): PostgreSQL's integer columns of 0001 rounded each
  // run's cost away, and usage past a plan's limit is billed from them now. SQLite keeps any number.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table subscriptions alter column used_slans type double precision`.execute(db);
    await sql`alter table users alter column used_slans type double precision`.execute(db);
  }

  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
  await db.schema.alterTable('users').addColumn('support_agent', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
  // Every firm so far had one user, who registered it: the earliest user of each group owns it.
  await sql`
    update users set role = 'owner'
    where id in (
      select u.id from users u
      where u.created_at = (select min(o.created_at) from users o where o.group_id = u.group_id)
    )`.execute(db);

  await db.schema
    .createTable('colleague_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    /** sha256 of the link's secret; the secret itself is only in the email. */
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('colleague_invitations_group_idx').on('colleague_invitations').columns(['group_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['colleague_invitations', 'support_attachments', 'support_messages', 'support_tickets', 'credit_grants', 'billing_usage_reports', 'billing_invoices', 'billing_events', 'billing_profiles']) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ['disabled_at', 'support_agent', 'role']) await db.schema.alterTable('users').dropColumn(column).execute();
  await db.schema.dropIndex('subscriptions_stripe_subscription_idx').execute();
  await db.schema.dropIndex('subscriptions_stripe_customer_idx').execute();
  for (const column of ['stripe_synced_at', 'payment_failed_at', 'current_period_start', 'next_plan_id', 'stripe_schedule_id', 'stripe_subscription_id', 'stripe_customer_id']) {
    await db.schema.alterTable('subscriptions').dropColumn(column).execute();
  }
  for (const column of ['available', 'stripe_extra_price_id', 'stripe_price_id']) await db.schema.alterTable('plans').dropColumn(column).execute();
}
