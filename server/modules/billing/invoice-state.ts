import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import type { BillingInvoicesTable } from '../../db/schema-billing.ts';
import { firmOf } from './subscription-state.ts';
import { idOf, isoOf } from './stripe-ids.ts';

/**
 * An invoice's current state (read back from Stripe) in billing_invoices, and the firm's failed-payment
 * flag derived from its invoices: set while an unpaid invoice had a failed attempt, cleared once paid.
 */

const SETTLED: ReadonlySet<string> = new Set(['paid', 'void', 'uncollectible']);
export interface AppliedInvoice {
  groupId: string;
  /** Still waiting to be paid, after a failed attempt. */
  failed: boolean;
}

/** The invoice's period: its lines' span (a subscription invoice bills the period in its lines). */
function periodOf(invoice: Stripe.Invoice): { start: string; end: string } {
  const lines = invoice.lines.data;
  if (lines.length === 0) return { start: isoOf(invoice.period_start), end: isoOf(invoice.period_end) };
  return { start: isoOf(Math.min(...lines.map((line) => line.period.start))), end: isoOf(Math.max(...lines.map((line) => line.period.end))) };
}

export async function firmOfInvoice(db: Kysely<Database>, invoice: Stripe.Invoice): Promise<string | null> {
  const details = invoice.parent?.subscription_details ?? null;
  const subscriptionId = idOf(details?.subscription);
  if (subscriptionId) {
    const row = await db.selectFrom('subscriptions').select('group_id').where('stripe_subscription_id', '=', subscriptionId).executeTakeFirst();
    if (row) return row.group_id;
  }
  return firmOf(db, details?.metadata ?? invoice.metadata, idOf(invoice.customer));
}

/**
 * Upserts the invoice. `failedAttempt`: this event says a payment attempt failed. Writes only what
 * changed, so a replay leaves every row as it was. Null when the invoice is not one of our firms'.
 */
export async function applyInvoice(db: Kysely<Database>, invoice: Stripe.Invoice, failedAttempt: boolean, now: Date, hintGroupId: string | null = null): Promise<AppliedInvoice | null> {
  const groupId = hintGroupId ?? (await firmOfInvoice(db, invoice));
  if (!groupId) return null;
  const status = (invoice.status ?? 'draft') as BillingInvoicesTable['status'];
  const existing = await db.selectFrom('billing_invoices').selectAll().where('id', '=', invoice.id).executeTakeFirst();
  const settled = SETTLED.has(status);
  const paymentFailedAt = settled ? null : (existing?.payment_failed_at ?? (failedAttempt ? now.toISOString() : null));
  const period = periodOf(invoice);
  const state = {
    group_id: groupId,
    number: invoice.number,
    status,
    currency: invoice.currency,
    total: invoice.total,
    amount_paid: invoice.amount_paid,
    amount_due: invoice.amount_due,
    period_start: period.start,
    period_end: period.end,
    hosted_invoice_url: invoice.hosted_invoice_url ?? null,
    invoice_pdf: invoice.invoice_pdf ?? null,
    payment_failed_at: paymentFailedAt,
    created_at: isoOf(invoice.created),
  };

  await db.transaction().execute(async (trx) => {
    if (!existing) {
      await trx.insertInto('billing_invoices').values({ id: invoice.id, ...state, updated_at: now.toISOString() }).onConflict((oc) => oc.column('id').doNothing()).execute();
    } else if ((Object.keys(state) as Array<keyof typeof state>).some((key) => state[key] !== existing[key])) {
      await trx.updateTable('billing_invoices').set({ ...state, updated_at: now.toISOString() }).where('id', '=', invoice.id).execute();
    }
    // The banner follows the invoices, not the order events came in: the latest unpaid failure, if any.
    const latest = await trx
      .selectFrom('billing_invoices')
      .select((eb) => eb.fn.max('payment_failed_at').as('at'))
      .where('group_id', '=', groupId)
      .where('payment_failed_at', 'is not', null)
      .executeTakeFirst();
    const failedAt = latest?.at ?? null;
    await trx
      .updateTable('subscriptions')
      .set({ payment_failed_at: failedAt, updated_at: now.toISOString() })
      .where('group_id', '=', groupId)
      .where((eb) => (failedAt === null ? eb('payment_failed_at', 'is not', null) : eb.or([eb('payment_failed_at', 'is', null), eb('payment_failed_at', '!=', failedAt)])))
      .execute();
  });
  return { groupId, failed: paymentFailedAt !== null };
}
