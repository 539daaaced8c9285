/**
 * Invoices as Stripe makes them for subscriptions: licensed prices billed for the period ahead, metered
 * prices for the period just ended (unique meter events' values × the price's decimal amount, in cents,
 * rounded); created as drafts, finalized with a number and a PDF, then charged to a card.
 */
import type { Customer, Invoice, InvoiceLine, PaymentMethod, Subscription, SubscriptionItem } from './objects.ts';
import type { StripeStore } from './store.ts';
import type { StripeEvent, WebhookQueue } from './webhooks.ts';

type Request = StripeEvent['request'];

/** One month on, on the same day when the month has it (Stripe anchors monthly periods likewise). */
export function addMonth(unix: number): number {
  const date = new Date(unix * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}

/** The sum of the unique meter events' values for a customer, a meter and a period [start, end). */
export function usage(store: StripeStore, customer: string, meterId: string, start: number, end: number): number {
  const eventNames = new Set(store.all('billing.meter', (meter) => meter.id === meterId).map((meter) => meter.event_name));
  return store.meterEvents
    .filter((event) => !event.duplicate && event.customer === customer && eventNames.has(event.eventName) && event.timestamp >= start && event.timestamp < end)
    .reduce((sum, event) => sum + event.value, 0);
}

export interface LineSpec {
  item: SubscriptionItem;
  /** The period the line bills: ahead for licensed prices, behind for metered ones. */
  period: { start: number; end: number };
}

export function draftInvoice(store: StripeStore, subscription: Subscription, billingReason: 'subscription_create' | 'subscription_cycle', specs: LineSpec[]): Invoice {
  const customer = store.get<Customer>('customer', subscription.customer);
  const id = store.newId('in');
  const lines = specs.map((spec) => lineOf(store, id, subscription, spec));
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const periods = specs.map((spec) => spec.period);
  const invoice: Invoice = {
    id,
    object: 'invoice',
    account_country: 'ES',
    account_name: 'AutoAsesor',
    amount_due: total,
    amount_paid: 0,
    amount_remaining: total,
    amount_overpaid: 0,
    amount_shipping: 0,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    billing_reason: billingReason,
    collection_method: 'charge_automatically',
    created: store.now(),
    currency: 'eur',
    customer: customer.id,
    customer_address: customer.address,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_tax_ids: store.all('tax_id', (taxId) => taxId.customer === customer.id).map((taxId) => ({ type: taxId.type, value: taxId.value })),
    default_payment_method: null,
    description: null,
    effective_at: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    lines: { object: 'list', data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } }, quote_details: null },
    period_start: Math.min(...periods.map((period) => period.start)),
    period_end: Math.max(...periods.map((period) => period.end)),
    status: 'draft',
    status_transitions: { finalized_at: null, paid_at: null, marked_uncollectible_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    total,
    total_excluding_tax: total,
    total_taxes: [],
    webhooks_delivered_at: null,
  };
  return store.put(invoice);
}

function lineOf(store: StripeStore, invoiceId: string, subscription: Subscription, { item, period }: LineSpec): InvoiceLine {
  const price = item.price;
  const metered = price.recurring?.usage_type === 'metered';
  const quantity = metered ? usage(store, subscription.customer, price.recurring?.meter ?? '', period.start, period.end) : (item.quantity ?? 1);
  const amount = Math.round(quantity * Number(price.unit_amount_decimal));
  const product = store.find(price.product);
  return {
    id: store.newId('il'),
    object: 'line_item',
    amount,
    currency: 'eur',
    description: `${quantity} × ${typeof product?.name === 'string' ? product.name : price.product}`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: subscription.id, subscription_item: item.id },
    },
    period,
    pretax_credit_amounts: [],
    pricing: { type: 'price_details', price_details: { price: price.id, product: price.product }, unit_amount_decimal: price.unit_amount_decimal },
    quantity,
    subtotal: amount,
    taxes: [],
  };
}

/** Emits invoice.created for the draft, finalizes it (number, PDF) and tries to charge it. */
export function finalizeAndCharge(store: StripeStore, hooks: WebhookQueue, invoice: Invoice, paymentMethod: string | null, request: Request, options: ChargeOptions = {}): boolean {
  hooks.emit('invoice.created', invoice, request);
  const customer = store.get<Customer>('customer', invoice.customer);
  customer._next_invoice_number += 1;
  invoice.number = `${customer.invoice_prefix}-${String(customer._next_invoice_number).padStart(4, '0')}`;
  invoice.status = 'open';
  invoice.effective_at = invoice.status_transitions.finalized_at = store.now();
  invoice.hosted_invoice_url = `${store.baseUrl()}/i/${invoice.id}`;
  invoice.invoice_pdf = `${store.baseUrl()}/invoices/${invoice.id}.pdf`;
  hooks.emit('invoice.finalized', invoice, request);
  return charge(store, hooks, invoice, paymentMethod, request, options);
}

/** `atCheckout`: the card was just confirmed by its holder, so failNextPayment and …0341 do not apply. */
export interface ChargeOptions {
  atCheckout?: boolean;
}

/** One payment attempt: paid (invoice.paid, invoice.payment_succeeded) or still open (invoice.payment_failed). */
export function charge(store: StripeStore, hooks: WebhookQueue, invoice: Invoice, paymentMethod: string | null, request: Request, { atCheckout = false }: ChargeOptions = {}): boolean {
  const card = paymentMethod === null ? undefined : (store.find(paymentMethod) as PaymentMethod | undefined);
  const failNext = !atCheckout && invoice.amount_due > 0 && store.failNextPayment.delete(invoice.customer);
  const usable = card !== undefined && card.customer === invoice.customer && (atCheckout || !card._fails_charges);
  const succeeded = invoice.amount_due === 0 || (usable && !failNext);
  if (invoice.amount_due > 0) {
    invoice.attempt_count += 1;
    invoice.attempted = true;
  }
  if (!succeeded) {
    hooks.emit('invoice.payment_failed', invoice, request);
    return false;
  }
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.status_transitions.paid_at = store.now();
  if (card !== undefined) invoice.default_payment_method = card.id;
  hooks.emit('invoice.paid', invoice, request);
  hooks.emit('invoice.payment_succeeded', invoice, request);
  return true;
}

/** The card a subscription's invoices are charged to: its own default, else the customer's. */
export function paymentMethodOf(store: StripeStore, subscription: Subscription): string | null {
  return subscription.default_payment_method ?? store.get<Customer>('customer', subscription.customer).invoice_settings.default_payment_method;
}
