/**
 * What happens outside the API calls: a customer paying on the hosted checkout page, the end of a
 * billing period, a retried invoice. Each step leaves the objects and the events Stripe would.
 */
import { TEST_CARDS } from './catalogue.ts';
import { StripeApiError, invalidParam } from './http.ts';
import { addMonth, charge, draftInvoice, finalizeAndCharge, paymentMethodOf, type LineSpec } from './invoices.ts';
import type { CheckoutSession, Customer, Invoice, PaymentMethod, Price, Subscription, SubscriptionItem, SubscriptionSchedule } from './objects.ts';
import { releaseSchedule } from './schedules.ts';
import type { StripeStore } from './store.ts';
import type { StripeEvent, WebhookQueue } from './webhooks.ts';

type Request = StripeEvent['request'];
const NO_REQUEST: Request = { id: null, idempotency_key: null };

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  name: string | null;
}

/** Why a checkout could not complete, in the words the hosted page shows. */
export class CheckoutProblem extends Error {
  constructor(readonly reason: 'declined' | 'unknown_card' | 'not_open' | 'expired') {
    super({ declined: 'Tu tarjeta ha sido rechazada.', unknown_card: 'El número de tarjeta no es válido.', not_open: 'Este pago ya se ha completado.', expired: 'Esta página de pago ha caducado. Vuelve a la aplicación para empezar de nuevo.' }[reason]);
  }
}

export const DEFAULT_CARD: CardInput = { number: '4242424242424242', expMonth: 12, expYear: 2034, name: 'Titular de prueba' };

export class Billing {
  constructor(
    private readonly store: StripeStore,
    private readonly hooks: WebhookQueue,
  ) {}

  /** What the hosted page's button does: the card is checked, attached, and the session completed. */
  completeCheckout(sessionId: string, card: CardInput = DEFAULT_CARD): { redirectUrl: string } {
    const session = this.store.get<CheckoutSession>('checkout.session', sessionId);
    if (session.status === 'expired') throw new CheckoutProblem('expired');
    if (session.status !== 'open') throw new CheckoutProblem('not_open');
    const known = TEST_CARDS[card.number];
    if (known === undefined) throw new CheckoutProblem('unknown_card');
    if (known.declined) throw new CheckoutProblem('declined');
    const paymentMethod = this.attachCard(session.customer, card, known.brand, known.failsLater === true);
    session.status = 'complete';
    if (session.mode === 'setup') this.completeSetup(session, paymentMethod);
    else this.completeSubscription(session, paymentMethod);
    return { redirectUrl: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) };
  }

  private attachCard(customer: string, card: CardInput, brand: string, failsLater: boolean): PaymentMethod {
    return this.store.put<PaymentMethod>({
      id: this.store.newId('pm'),
      object: 'payment_method',
      type: 'card',
      created: this.store.now(),
      customer,
      livemode: false,
      metadata: {},
      allow_redisplay: 'always',
      billing_details: { name: card.name, email: null, phone: null, address: null },
      card: { brand, display_brand: brand, last4: card.number.slice(-4), exp_month: card.expMonth, exp_year: card.expYear, country: 'US', funding: 'credit' },
      _fails_charges: failsLater,
    });
  }

  private completeSetup(session: CheckoutSession, paymentMethod: PaymentMethod): void {
    const setupIntent = this.store.put({
      id: this.store.newId('seti'),
      object: 'setup_intent',
      created: this.store.now(),
      customer: session.customer,
      description: null,
      last_setup_error: null,
      livemode: false,
      metadata: {},
      payment_method: paymentMethod.id,
      payment_method_types: ['card'],
      status: 'succeeded',
      usage: 'off_session',
    });
    session.setup_intent = setupIntent.id;
    session.payment_status = 'no_payment_required';
    this.hooks.emit('setup_intent.succeeded', setupIntent, NO_REQUEST);
    this.hooks.emit('checkout.session.completed', session, NO_REQUEST);
  }

  private completeSubscription(session: CheckoutSession, paymentMethod: PaymentMethod): void {
    const customer = this.store.get<Customer>('customer', session.customer);
    customer.invoice_settings.default_payment_method = paymentMethod.id;
    const start = this.store.now();
    const id = this.store.newId('sub');
    const items = session._line_items.map((line) => this.newItem(id, line.price, line.quantity, start, addMonth(start)));
    const subscription = this.store.put<Subscription>({
      id,
      object: 'subscription',
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created: start,
      currency: 'eur',
      customer: customer.id,
      default_payment_method: paymentMethod.id,
      description: null,
      ended_at: null,
      items: { object: 'list', data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
      latest_invoice: null,
      livemode: false,
      metadata: { ...session._subscription_metadata },
      schedule: null,
      start_date: start,
      status: 'active',
      trial_end: null,
      trial_start: null,
    });
    const invoice = draftInvoice(this.store, subscription, 'subscription_create', items.map((item) => ({ item, period: periodOf(item) })));
    subscription.latest_invoice = invoice.id;
    session.subscription = subscription.id;
    session.payment_status = 'paid';
    this.hooks.emit('checkout.session.completed', session, NO_REQUEST);
    this.hooks.emit('customer.subscription.created', subscription, NO_REQUEST);
    // The first charge is part of the checkout: a card that fails later (…0341) still pays this one.
    finalizeAndCharge(this.store, this.hooks, invoice, paymentMethod.id, NO_REQUEST, { atCheckout: true });
  }

  newItem(subscription: string, priceId: string, quantity: number | null | undefined, start: number, end: number): SubscriptionItem {
    const price = this.store.get<Price>('price', priceId);
    return {
      id: this.store.newId('si'),
      object: 'subscription_item',
      created: this.store.now(),
      current_period_start: start,
      current_period_end: end,
      discounts: [],
      metadata: {},
      price: structuredClone(price),
      ...(price.recurring?.usage_type !== 'metered' && { quantity: quantity ?? 1 }),
      subscription,
      tax_rates: [],
    };
  }

  /**
   * The end of the current period: a subscription set to cancel ends; otherwise a schedule's next phase
   * takes over, periods move a month on, and the new period is invoiced and charged.
   */
  advancePeriod(subscriptionId: string): { invoiceId: string | null } {
    const subscription = this.store.get<Subscription>('subscription', subscriptionId);
    if (subscription.status === 'canceled') throw invalidParam('subscription', 'This subscription has been canceled.');
    const previous = structuredClone(subscription);
    const ended = periodOf(subscription.items.data[0]);
    if (subscription.cancel_at_period_end) {
      cancelSubscription(this.store, this.hooks, subscription, ended.end, NO_REQUEST);
      return { invoiceId: null };
    }
    const next = { start: ended.end, end: addMonth(ended.end) };
    const oldItems = subscription.items.data;
    const schedule = subscription.schedule === null ? null : this.store.get<SubscriptionSchedule>('subscription_schedule', subscription.schedule);
    const phaseIndex = schedule?.phases.findIndex((phase) => phase.start_date > ended.start && phase.start_date <= ended.end) ?? -1;
    if (schedule !== null && phaseIndex >= 0) {
      const phase = schedule.phases[phaseIndex];
      if (phase === undefined) throw new Error('unreachable: findIndex found the phase');
      subscription.items.data = phase.items.map((item) => oldItems.find((old) => old.price.id === item.price) ?? this.newItem(subscription.id, item.price, item.quantity, next.start, next.end));
      if (phaseIndex === schedule.phases.length - 1 && schedule.end_behavior === 'release') releaseSchedule(this.store, this.hooks, schedule, NO_REQUEST);
      else {
        schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date ?? addMonth(phase.start_date) };
        this.hooks.emit('subscription_schedule.updated', schedule, NO_REQUEST);
      }
    }
    for (const item of subscription.items.data) {
      item.current_period_start = next.start;
      item.current_period_end = next.end;
    }
    subscription.items.total_count = subscription.items.data.length;
    // Licensed prices are billed ahead for the new period; the metered ones for the usage of the one ended.
    const specs: LineSpec[] = [
      ...subscription.items.data.filter((item) => !isMetered(item)).map((item) => ({ item, period: next })),
      ...oldItems.filter(isMetered).map((item) => ({ item, period: { start: ended.start, end: ended.end } })),
    ];
    const invoice = draftInvoice(this.store, subscription, 'subscription_cycle', specs);
    subscription.latest_invoice = invoice.id;
    const paid = finalizeAndCharge(this.store, this.hooks, invoice, paymentMethodOf(this.store, subscription), NO_REQUEST);
    if (!paid) subscription.status = 'past_due';
    this.hooks.emit('customer.subscription.updated', subscription, NO_REQUEST, changed(previous, subscription));
    return { invoiceId: invoice.id };
  }

  /** Another attempt at an open invoice (after a new card): paid brings a past-due subscription back. */
  payInvoice(invoiceId: string, request: Request = NO_REQUEST, paymentMethod?: string): Invoice {
    const invoice = this.store.get<Invoice>('invoice', invoiceId);
    if (invoice.status !== 'open') throw invalidParam('invoice', `Invoice ${invoice.id} is already ${invoice.status}.`);
    const subscriptionId = invoice.parent?.subscription_details.subscription;
    const subscription = subscriptionId === undefined ? undefined : this.store.get<Subscription>('subscription', subscriptionId);
    const card = paymentMethod ?? (subscription ? paymentMethodOf(this.store, subscription) : this.store.get<Customer>('customer', invoice.customer).invoice_settings.default_payment_method);
    if (!charge(this.store, this.hooks, invoice, card, request)) throw new StripeApiError(402, 'card_error', 'Your card was declined.', 'card_declined');
    if (subscription?.status === 'past_due') {
      subscription.status = 'active';
      this.hooks.emit('customer.subscription.updated', subscription, request, { status: 'past_due' });
    }
    return invoice;
  }
}

export function cancelSubscription(store: StripeStore, hooks: WebhookQueue, subscription: Subscription, at: number, request: Request): void {
  subscription.status = 'canceled';
  subscription.canceled_at ??= at;
  subscription.ended_at = at;
  if (subscription.schedule !== null) {
    const schedule = store.get<SubscriptionSchedule>('subscription_schedule', subscription.schedule);
    schedule.status = 'canceled';
    subscription.schedule = null;
  }
  hooks.emit('customer.subscription.deleted', subscription, request);
}

export const periodOf = (item: SubscriptionItem | undefined): { start: number; end: number } => {
  if (item === undefined) throw new StripeApiError(500, 'api_error', 'The subscription has no items.');
  return { start: item.current_period_start, end: item.current_period_end };
};

const isMetered = (item: SubscriptionItem): boolean => item.price.recurring?.usage_type === 'metered';

/** Stripe's previous_attributes: the old values of the top-level fields that changed. */
export function changed<T extends object>(before: T, after: T): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify((after as Record<string, unknown>)[key])) previous[key] = value;
  }
  return previous;
}
