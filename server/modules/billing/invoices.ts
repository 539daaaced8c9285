import type { Kysely } from 'kysely';
import type { Invoice } from '#shared/api/billing.ts';
import type { Database } from '../../db/schema.ts';

/** Stripe counts cents; the page shows euros. */
const euros = (cents: number | string): number => Number(cents) / 100;

/** The firm's invoices as the webhooks stored them, newest first (no call to Stripe). */
export async function listInvoices(db: Kysely<Database>, groupId: string): Promise<Invoice[]> {
  const rows = await db.selectFrom('billing_invoices').selectAll().where('group_id', '=', groupId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    status: row.status,
    total: euros(row.total),
    amountPaid: euros(row.amount_paid),
    currency: row.currency,
    createdAt: row.created_at,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    pdfUrl: row.invoice_pdf,
    hostedUrl: row.hosted_invoice_url,
    paymentFailed: row.payment_failed_at !== null,
  }));
}
