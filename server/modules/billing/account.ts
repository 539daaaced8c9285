import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { BillingInfo, Invoice, PaymentMethod, Plan, SubscriptionFull } from '#shared/api/billing.ts';
import { PAYMENT_METHOD_NOT_FOUND_MESSAGE } from '#shared/api/billing.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { readBillingInfo, saveBillingInfo } from './billing-info.ts';
import { listCards, removeCard, setDefaultCard, type CardOwner } from './cards.ts';
import { syncPlansFromStripe } from './catalogue.ts';
import { startCardSetup, startCheckout } from './checkout.ts';
import type { BillingConfig } from './config.ts';
import { firmSubscription, runningSubscriptionId } from './customer.ts';
import { listInvoices } from './invoices.ts';
import { billingCaller, requireOwner, type BillingCaller, type SessionIds } from './owner.ts';
import { keepCurrentPlan, scheduleNextPlan, setCancelAtPeriodEnd } from './plan-change.ts';
import { listPlans, subscriptionFull } from './full-view.ts';
import { requireStripe } from './stripe-errors.ts';
import type { StripeClient } from './stripe-client.ts';

export interface BillingAccountDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Null without STRIPE_SECRET_KEY: reads work from the database, changes answer 409. */
  stripe: StripeClient | null;
  config: BillingConfig | null;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * The firm's account with Stripe (shared/api/billing.ts): plans, the full subscription view, checkout,
 * cards, billing info, a change of plan, cancel and resume, invoices. Reads are for every member of the
 * firm and work without Stripe; changes are for the owner and need Stripe (409 without it, checked
 * first: it is the server's state, not the caller's). The webhooks (sync.ts) are the source of truth
 * for the subscription; this only asks Stripe to act and stores what its answers say.
 */
export class BillingAccount {
  constructor(readonly deps: BillingAccountDeps) {}

  /** Plans from Stripe's prices into the plans table (at start, then hourly). Nothing to do without Stripe. */
  async syncPlans(): Promise<void> {
    const { db, stripe, now, log } = this.deps;
    if (stripe) await syncPlansFromStripe(db, stripe, now(), log);
  }

  plans(session: SessionIds): Promise<Plan[]> {
    return listPlans(this.deps.db, session.groupId);
  }

  async subscription(session: SessionIds): Promise<SubscriptionFull> {
    return subscriptionFull(this.deps, await billingCaller(this.deps.db, session));
  }

  async checkout(session: SessionIds, planRef: string): Promise<{ url: string }> {
    const { stripe, caller } = await this.forChange(session);
    return startCheckout({ ...this.deps, stripe }, caller, planRef);
  }

  async cardSetup(session: SessionIds): Promise<{ url: string }> {
    const { stripe, caller } = await this.forChange(session);
    return startCardSetup({ ...this.deps, stripe }, caller);
  }

  /** No Stripe or no customer yet: no cards. */
  async cards(session: SessionIds): Promise<PaymentMethod[]> {
    const { stripe, log } = this.deps;
    const owner = await this.cardOwner(session.groupId);
    return stripe && owner ? listCards(stripe, log, owner) : [];
  }

  async makeDefaultCard(session: SessionIds, cardId: string): Promise<void> {
    const { stripe } = await this.forChange(session);
    await setDefaultCard(stripe, this.deps.log, await this.requireCardOwner(session.groupId), cardId);
  }

  async removeCard(session: SessionIds, cardId: string): Promise<void> {
    const { stripe } = await this.forChange(session);
    await removeCard(stripe, this.deps.log, await this.requireCardOwner(session.groupId), cardId);
  }

  billingInfo(session: SessionIds): Promise<BillingInfo | null> {
    return readBillingInfo(this.deps.db, session.groupId);
  }

  async saveBillingInfo(session: SessionIds, info: BillingInfo): Promise<BillingInfo> {
    const { stripe, caller } = await this.forChange(session);
    return saveBillingInfo({ ...this.deps, stripe }, caller, info);
  }

  async scheduleNextPlan(session: SessionIds, planRef: string): Promise<SubscriptionFull> {
    const { stripe, caller } = await this.forChange(session);
    await scheduleNextPlan({ ...this.deps, stripe }, session.groupId, planRef);
    return subscriptionFull(this.deps, caller);
  }

  async keepCurrentPlan(session: SessionIds): Promise<void> {
    const { stripe } = await this.forChange(session);
    await keepCurrentPlan({ ...this.deps, stripe }, session.groupId);
  }

  async cancel(session: SessionIds): Promise<SubscriptionFull> {
    return this.setCancel(session, true);
  }

  async resume(session: SessionIds): Promise<SubscriptionFull> {
    return this.setCancel(session, false);
  }

  invoices(session: SessionIds): Promise<Invoice[]> {
    return listInvoices(this.deps.db, session.groupId);
  }

  private async setCancel(session: SessionIds, cancel: boolean): Promise<SubscriptionFull> {
    const { stripe, caller } = await this.forChange(session);
    await setCancelAtPeriodEnd({ ...this.deps, stripe }, session.groupId, cancel);
    return subscriptionFull(this.deps, caller);
  }

  /** A change needs Stripe (409) and the firm's owner (403), in that order. */
  private async forChange(session: SessionIds): Promise<{ stripe: StripeClient; caller: BillingCaller }> {
    const stripe = requireStripe(this.deps.stripe);
    return { stripe, caller: await requireOwner(this.deps.db, session) };
  }

  private async cardOwner(groupId: string): Promise<CardOwner | null> {
    const row = await firmSubscription(this.deps.db, groupId);
    return row.stripe_customer_id ? { customerId: row.stripe_customer_id, subscriptionId: runningSubscriptionId(row) } : null;
  }

  /** A firm without a Stripe customer has no cards: any card id is then not found. */
  private async requireCardOwner(groupId: string): Promise<CardOwner> {
    const owner = await this.cardOwner(groupId);
    if (!owner) throw new HttpError(404, 'PAYMENT_METHOD_NOT_FOUND', PAYMENT_METHOD_NOT_FOUND_MESSAGE);
    return owner;
  }
}
