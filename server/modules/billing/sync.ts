import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Mailer, MessageEmail } from '../../mail/mailer.ts';
import type { BillingConfig } from './config.ts';
import { markEventProcessed, receiveEvent } from './events.ts';
import { applyInvoice, firmOfInvoice } from './invoice-state.ts';
import { paymentFailedEmail } from './payment-failed-mail.ts';
import type { StripeClient } from './stripe-client.ts';
import { applySubscription, firmOf } from './subscription-state.ts';
import { idOf } from './stripe-ids.ts';
import { isMissingAtStripe } from './stripe-errors.ts';

export interface BillingSyncDeps {
  db: Kysely<Database>;
  now: () => Date;
  stripe: StripeClient | null;
  config: BillingConfig | null;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export const INVALID_SIGNATURE_MESSAGE = 'La firma del aviso de Stripe no es válida';
export const WEBHOOK_NOT_CONFIGURED_MESSAGE = 'Este servidor no recibe avisos de Stripe';
export const WEBHOOK_FAILED_MESSAGE = 'No se ha podido procesar el aviso de Stripe; se reintentará';

/** The failed-payment email an event calls for, and the invoice it is about. */
interface PaymentFailedNotice {
  invoiceId: string;
  email: MessageEmail;
}

/** How far ahead of our clock a Stripe-Signature's time may be: the two clocks' skew, no more. */
export const SIGNATURE_CLOCK_SKEW_SECONDS = 60;

/** The `t=` of a Stripe-Signature header, read as the SDK reads it (the last `t=` wins); null without one. */
export function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp === null || Number.isNaN(timestamp) ? null : timestamp;
}

/**
 * Stripe's webhooks, the source of truth for a firm's subscription and invoices. Each event is kept by
 * id (a replay changes nothing) and only names what changed: the object is read back from Stripe and
 * its current state applied, so events may arrive late, twice or out of order.
 */
export class BillingSync {
  constructor(readonly deps: BillingSyncDeps) {}

  /**
   * One delivery: the raw body and its Stripe-Signature header. Throws 404 without Stripe, 400 on a
   * bad signature (nothing written); a failure while processing propagates (500: Stripe sends it again).
   */
  async receive(raw: Buffer, signature: string | undefined): Promise<void> {
    const { stripe, config, db, now } = this.deps;
    if (!stripe || !config) throw new HttpError(404, 'NOT_FOUND', WEBHOOK_NOT_CONFIGURED_MESSAGE);
    const event = this.verify(stripe, config, raw, signature);
    if (!(await receiveEvent(db, event, now()))) return;
    let notice: PaymentFailedNotice | null;
    try {
      notice = await this.process(stripe, event);
    } catch (error) {
      if (isMissingAtStripe(error)) {
        // The object no longer exists at Stripe (a deleted draft invoice): nothing to apply, ever.
        this.deps.log.warn({ eventId: event.id, type: event.type }, 'Un aviso de Stripe nombra algo que ya no existe; no hay nada que aplicar');
        notice = null;
      } else {
        // A 500 whatever Stripe answered our read: Stripe sends the event again later.
        this.deps.log.error({ err: error, eventId: event.id, type: event.type }, 'No se ha podido procesar un aviso de Stripe; Stripe lo reenviará');
        throw new HttpError(500, 'WEBHOOK_FAILED', WEBHOOK_FAILED_MESSAGE);
      }
    }
    // Only the delivery that marks the event processed may send its email, and then only if no event
    // about the same invoice has (sendPaymentFailed): once per invoice.
    if ((await markEventProcessed(db, event.id, now())) && notice) await this.sendPaymentFailed(notice, event.id);
  }

  /**
   * The failed-payment email, once per invoice: Stripe sends an invoice.payment_failed for every failed
   * attempt (and any number of other events about the invoice), each with an id of its own. The
   * process whose update sets payment_failed_mailed_at (still null) sends it, whichever server process
   * it is; if sending fails the mark is taken back, so the next attempt's event tries again.
   */
  private async sendPaymentFailed({ invoiceId, email }: PaymentFailedNotice, eventId: string): Promise<void> {
    const { db, now } = this.deps;
    const mailedAt = now().toISOString();
    const claimed = await db.updateTable('billing_invoices').set({ payment_failed_mailed_at: mailedAt }).where('id', '=', invoiceId).where('payment_failed_mailed_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return;
    try {
      await this.deps.mailer.sendMessage(email);
    } catch (error) {
      this.deps.log.error({ err: error, eventId, invoiceId }, 'No se ha podido enviar el aviso de pago fallido');
      await db.updateTable('billing_invoices').set({ payment_failed_mailed_at: null }).where('id', '=', invoiceId).where('payment_failed_mailed_at', '=', mailedAt).execute();
    }
  }

  /**
   * The SDK checks the signature and that it is at most 300 s old, but takes any time ahead of ours
   * (its check is `now - t > tolerance`): a signature dated in the future would stay valid until then.
   * Past a small clock skew, one is refused like a bad signature. Both checks use the wall clock, as
   * Stripe signs with its own.
   */
  private verify(stripe: StripeClient, config: BillingConfig, raw: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new HttpError(400, 'INVALID_SIGNATURE', INVALID_SIGNATURE_MESSAGE);
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(raw, signature, config.webhookSecret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new HttpError(400, 'INVALID_SIGNATURE', INVALID_SIGNATURE_MESSAGE);
      throw error;
    }
    const signedAt = signatureTimestamp(signature);
    if (signedAt === null || signedAt > Math.floor(Date.now() / 1000) + SIGNATURE_CLOCK_SKEW_SECONDS) {
      this.deps.log.warn({ eventId: event.id, signedAt }, 'Aviso de Stripe firmado con una hora futura: rechazado');
      throw new HttpError(400, 'INVALID_SIGNATURE', INVALID_SIGNATURE_MESSAGE);
    }
    return event;
  }

  /** Applies what the event is about; the failed-payment email to send (once per invoice), if any. */
  private async process(stripe: StripeClient, event: Stripe.Event): Promise<PaymentFailedNotice | null> {
    const { db, now } = this.deps;
    const objectId = (event.data.object as { id?: string }).id;
    if (!objectId) return null;
    if (event.type.startsWith('customer.subscription.')) {
      await this.subscriptionChanged(stripe, objectId);
    } else if (event.type.startsWith('subscription_schedule.')) {
      const schedule = await stripe.subscriptionSchedules.retrieve(objectId);
      // A released schedule no longer names its subscription, which then has no next phase.
      const subscriptionId = idOf(schedule.subscription) ?? schedule.released_subscription;
      if (subscriptionId) await this.subscriptionChanged(stripe, subscriptionId);
    } else if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
      await this.checkoutCompleted(stripe, objectId);
    } else if (event.type === 'invoice.deleted') {
      // Only a draft can be deleted: it leaves the list, and the failed-payment flag never counted it.
      await db.deleteFrom('billing_invoices').where('id', '=', objectId).where('status', '=', 'draft').execute();
    } else if (event.type.startsWith('invoice.')) {
      const invoice = await stripe.invoices.retrieve(objectId);
      const failedAttempt = event.type === 'invoice.payment_failed';
      const groupId = (await firmOfInvoice(db, invoice)) ?? (await this.firmOfCustomer(stripe, idOf(invoice.customer)));
      const applied = groupId === null ? null : await applyInvoice(db, invoice, failedAttempt, now(), groupId);
      if (failedAttempt && applied?.failed) {
        const email = await paymentFailedEmail(db, applied.groupId, invoice, this.deps.publicUrl);
        return email ? { invoiceId: invoice.id, email } : null;
      }
    }
    return null;
  }

  private async subscriptionChanged(stripe: StripeClient, subscriptionId: string): Promise<void> {
    const { db, now } = this.deps;
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    const groupId = (await firmOf(db, sub.metadata, idOf(sub.customer))) ?? (await this.firmOfCustomer(stripe, idOf(sub.customer)));
    if (groupId) await applySubscription(db, stripe, sub, now(), groupId);
  }

  /**
   * The last resort for an object that names neither a firm nor a customer we know yet (an invoice
   * that arrives before its subscription): the group_id the customer was created with.
   */
  private async firmOfCustomer(stripe: StripeClient, customerId: string | null): Promise<string | null> {
    if (!customerId) return null;
    const customer = await stripe.customers.retrieve(customerId);
    return customer.deleted ? null : firmOf(this.deps.db, customer.metadata, null);
  }

  private async checkoutCompleted(stripe: StripeClient, sessionId: string): Promise<void> {
    const { db, now } = this.deps;
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    const customerId = idOf(session.customer);
    const hint = session.metadata?.group_id ?? session.client_reference_id ?? null;
    const groupId = await firmOf(db, hint ? { group_id: hint } : null, customerId);
    if (!groupId) return;
    if (session.mode === 'subscription') {
      const subscriptionId = idOf(session.subscription);
      if (subscriptionId) await applySubscription(db, stripe, await stripe.subscriptions.retrieve(subscriptionId), now(), groupId);
    } else if (session.mode === 'setup') {
      await this.adoptCard(stripe, groupId, idOf(session.setup_intent), customerId);
    }
  }

  /** A card added through hosted setup becomes the default of a customer (and subscription) that had none. */
  private async adoptCard(stripe: StripeClient, groupId: string, setupIntentId: string | null, sessionCustomer: string | null): Promise<void> {
    if (!setupIntentId) return;
    const intent = await stripe.setupIntents.retrieve(setupIntentId);
    const paymentMethod = idOf(intent.payment_method);
    const customerId = idOf(intent.customer) ?? sessionCustomer;
    if (intent.status !== 'succeeded' || !paymentMethod || !customerId) return;
    const customer = await stripe.customers.retrieve(customerId);
    if (customer.deleted) return;
    if (!customer.invoice_settings.default_payment_method) {
      await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethod } });
    }
    const row = await this.deps.db.selectFrom('subscriptions').select('stripe_subscription_id').where('group_id', '=', groupId).executeTakeFirst();
    if (!row?.stripe_subscription_id) return;
    const sub = await stripe.subscriptions.retrieve(row.stripe_subscription_id);
    if (!sub.default_payment_method && sub.status !== 'canceled') await stripe.subscriptions.update(sub.id, { default_payment_method: paymentMethod });
  }
}
