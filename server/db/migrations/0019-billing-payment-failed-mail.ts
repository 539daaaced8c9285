import type { Kysely } from 'kysely';

/**
 * Issue 39 (13): the failed-payment email goes once per invoice, not once per Stripe event about it
 * (Stripe sends an event for every failed attempt, and each has its own id). The one server process
 * that sets billing_invoices.payment_failed_mailed_at (while null) is the one that sends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('billing_invoices').addColumn('payment_failed_mailed_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('billing_invoices').dropColumn('payment_failed_mailed_at').execute();
}
