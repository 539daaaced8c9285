import { isRunningSubscription, type Invoice, type SubscriptionFull } from '#shared/api/billing.ts';
import { formatMadridDate } from '#shared/time/index.ts';
import { billing } from '../../i18n/es-billing.ts';

/** 'dd/mm/yyyy' in Madrid for an ISO instant from the server (spec §9). */
export const formatDay = (iso: string): string => formatMadridDate(new Date(iso));

/** Stripe statuses after which the subscription is over (it is shown as ended, not as cancelling). */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** A paid plan is running: a plan change waits for the next period instead of a new checkout (the server's rule too). */
export function hasRunningPaidPlan(subscription: SubscriptionFull): boolean {
  return subscription.stripeSub !== null && isRunningSubscription(subscription.stripeSub.status);
}

/** The plan's state in words, as the status card shows it. */
export function statusText(subscription: SubscriptionFull): string {
  const text = billing.status;
  const stripe = subscription.stripeSub;
  if (stripe === null) {
    if (subscription.trialing) return text.trialing;
    return subscription.active ? text.active : text.noPlan;
  }
  if (stripe.cancelAt !== null && !ENDED.has(stripe.status)) return text.cancelsOn(formatDay(stripe.cancelAt));
  switch (stripe.status) {
    case 'active': return text.active;
    case 'trialing': return text.trialing;
    case 'past_due': return text.pastDue;
    case 'unpaid': return text.unpaid;
    case 'paused': return text.paused;
    case 'incomplete': return text.incomplete;
    case 'canceled':
    case 'incomplete_expired': return text.cancelled;
  }
}

/** The tone of the status: a payment problem or an end stands out. */
export function statusTone(subscription: SubscriptionFull): 'ok' | 'warning' | 'danger' {
  const stripe = subscription.stripeSub;
  if (subscription.paymentFailed || stripe?.status === 'past_due' || stripe?.status === 'unpaid') return 'danger';
  if (stripe?.cancelAt || (stripe && ENDED.has(stripe.status))) return 'warning';
  return 'ok';
}

/** The day the current period ends (when a plan change applies or a cancel takes effect). */
export function periodEnd(subscription: SubscriptionFull): string | null {
  const iso = subscription.stripeSub?.currentPeriodEnd ?? subscription.nextPaymentDate;
  return iso ? formatDay(iso) : null;
}

export type InvoiceStatus = keyof typeof billing.invoices.statuses;

/** Four states a firm cares about: paid, waiting, could not be charged, cancelled. */
export function invoiceStatus(invoice: Invoice): InvoiceStatus {
  switch (invoice.status) {
    case 'paid': return 'paid';
    case 'void': return 'void';
    case 'uncollectible': return 'failed';
    case 'draft':
    case 'open': return invoice.paymentFailed ? 'failed' : 'open';
  }
}

/** Stripe's currency codes are lower-case ('eur'); Intl wants them upper-case. */
export const currencyCode = (currency: string): string => currency.toUpperCase();
