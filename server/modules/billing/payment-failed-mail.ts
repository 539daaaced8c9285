import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { formatMoney } from '#shared/billing/index.ts';
import type { Database } from '../../db/schema.ts';
import type { MessageEmail } from '../../mail/mailer.ts';

/** The email to a firm's owner when Stripe could not charge an invoice; null when the firm has no owner to tell. */
export async function paymentFailedEmail(db: Kysely<Database>, groupId: string, invoice: Stripe.Invoice, publicUrl: string): Promise<MessageEmail | null> {
  const owner = await db
    .selectFrom('users')
    .select(['email', 'name'])
    .where('group_id', '=', groupId)
    .where('role', '=', 'owner')
    .where('disabled_at', 'is', null)
    .orderBy('created_at')
    .executeTakeFirst();
  if (!owner) return null;
  const plan = await db.selectFrom('subscriptions').innerJoin('plans', 'plans.id', 'subscriptions.plan_id').select('plans.name').where('subscriptions.group_id', '=', groupId).executeTakeFirst();
  const amount = formatMoney(invoice.amount_due / 100, invoice.currency.toUpperCase());
  const link = `${publicUrl}/payments`;
  const text = [
    `Hola, ${owner.name}:`,
    '',
    `No hemos podido cobrar la factura de ${amount}${plan ? ` de tu plan ${plan.name}` : ''} con la tarjeta guardada.`,
    'Volveremos a intentarlo en los próximos días. Si no se puede cobrar, el plan se cancelará y tu equipo dejará de poder lanzar robots.',
    `Para evitarlo, revisa tu tarjeta o añade otra en Pagos: ${link}`,
  ].join('\n');
  return { purpose: 'payment_failed', to: owner.email, subject: 'No hemos podido cobrar tu plan de AutoAsesor', text, link };
}
