/**
 * The Stripe objects the stand-in keeps, in Stripe's own JSON shape (API 2026-10-28.endive): only the
 * fields the SDK types name and the server reads are listed; each object carries them as Stripe does.
 */
export type Metadata = Record<string, string>;
export type List<T> = { object: 'list'; data: T[]; has_more: boolean; url: string; total_count?: number };

export interface StripeObject {
  id: string;
  object: string;
  [field: string]: unknown;
}

export interface Customer extends StripeObject {
  object: 'customer';
  name: string | null;
  email: string | null;
  address: Record<string, string | null> | null;
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null; custom_fields: null; footer: null; rendering_options: null };
  invoice_prefix: string;
  /** Stripe has no such field; kept out of the answers (see publicView). */
  _next_invoice_number: number;
}

export interface Card {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface PaymentMethod extends StripeObject {
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: Card & { country: string; funding: string; display_brand: string };
  billing_details: { name: string | null; email: string | null; phone: string | null; address: null };
  /** 4000000000000341: attaches, but every charge fails. */
  _fails_charges: boolean;
}

export interface Price extends StripeObject {
  object: 'price';
  active: boolean;
  currency: string;
  lookup_key: string | null;
  metadata: Metadata;
  product: string;
  recurring: { interval: 'month'; interval_count: 1; usage_type: 'licensed' | 'metered'; meter: string | null; trial_period_days: null } | null;
  unit_amount: number | null;
  unit_amount_decimal: string;
}

export interface Product extends StripeObject {
  object: 'product';
  name: string;
  active: boolean;
  metadata: Metadata;
}

export interface Meter extends StripeObject {
  object: 'billing.meter';
  event_name: string;
  status: 'active' | 'inactive';
  customer_mapping: { type: 'by_id'; event_payload_key: string };
  value_settings: { event_payload_key: string };
}

export interface CheckoutSession extends StripeObject {
  object: 'checkout.session';
  mode: 'subscription' | 'setup';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  subscription: string | null;
  setup_intent: string | null;
  amount_total: number | null;
  currency: string | null;
  metadata: Metadata;
  /** What the hosted page sells (Stripe keeps it behind line_items, which it lists on request only). */
  _line_items: { price: string; quantity: number | null }[];
  _subscription_metadata: Metadata;
}

export interface SubscriptionItem extends StripeObject {
  object: 'subscription_item';
  price: Price;
  quantity?: number;
  subscription: string;
  current_period_start: number;
  current_period_end: number;
}

export interface Subscription extends StripeObject {
  object: 'subscription';
  customer: string;
  status: 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete';
  items: List<SubscriptionItem>;
  default_payment_method: string | null;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  metadata: Metadata;
  schedule: string | null;
  latest_invoice: string | null;
}

export interface Phase {
  start_date: number;
  end_date: number | null;
  items: { price: string; quantity?: number }[];
  metadata: Metadata;
}

export interface SubscriptionSchedule extends StripeObject {
  object: 'subscription_schedule';
  customer: string;
  subscription: string | null;
  status: 'active' | 'released' | 'canceled' | 'completed' | 'not_started';
  end_behavior: 'release' | 'cancel';
  phases: Phase[];
  current_phase: { start_date: number; end_date: number } | null;
  released_at: number | null;
  released_subscription: string | null;
}

export interface InvoiceLine extends StripeObject {
  object: 'line_item';
  amount: number;
  quantity: number | null;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
}

export interface Invoice extends StripeObject {
  object: 'invoice';
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  number: string | null;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  total: number;
  attempt_count: number;
  attempted: boolean;
  lines: List<InvoiceLine>;
  parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Metadata }; quote_details: null } | null;
  status_transitions: { finalized_at: number | null; paid_at: number | null; marked_uncollectible_at: null; voided_at: null };
  invoice_pdf: string | null;
  hosted_invoice_url: string | null;
  period_start: number;
  period_end: number;
}

/** The answer's copy: deep, without the stand-in's own `_` fields. */
export function publicView<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, field: unknown) => (key.startsWith('_') ? undefined : field))) as T;
}
