import type { LauncherSubscription, SubscriptionUsage } from '../domain/subscription.ts';

export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'incomplete' | 'unpaid';

/** The stored subscription as the billing provider reports it, plus the plan's usage figures. */
export interface SubscriptionRecord {
  name: string;
  status: SubscriptionStatus;
  /** ISO-8601 end of the current billing period. */
  currentPeriodEnd: string;
  /** ISO-8601 date the subscription is set to end, or null when it renews. */
  cancelAt: string | null;
  usageLimit: number;
  usedSlans: number;
  extraUsagePrice: number;
  basePrice: number;
  /** The latest invoice's payment failed and nothing was paid since. */
  paymentFailed: boolean;
}

const NO_SUBSCRIPTION: SubscriptionUsage = {
  active: false,
  trialing: false,
  name: '',
  balance: 0,
  cancelled: false,
  usageLimit: 0,
  usedSlans: 0,
  slansPercentage: 0,
  excededSlans: 0,
  extraPrice: 0,
  nextPaymentDate: null,
  paymentFailed: false,
  extraSlanPrice: null,
};

/** Spec §9: active when the status is active or trialing and the period end is not in the past. */
function isActive(record: SubscriptionRecord, now: Date): boolean {
  const periodEnd = Date.parse(record.currentPeriodEnd);
  if (Number.isNaN(periodEnd)) return false;
  return (record.status === 'active' || record.status === 'trialing') && periodEnd >= now.getTime();
}

/** Derives the figures of the status card, top bar and banner from the stored record (spec §3, §9). */
export function deriveSubscription(record: SubscriptionRecord | null, now: Date): SubscriptionUsage {
  if (record === null) return { ...NO_SUBSCRIPTION };

  const { usageLimit, usedSlans } = record;
  const excededSlans = Math.max(0, usedSlans - usageLimit);
  const cancelled = record.status === 'canceled' || record.cancelAt !== null;
  const active = isActive(record, now);
  const trialing = record.status === 'trialing';

  return {
    active,
    trialing,
    name: record.name,
    balance: Math.max(0, usageLimit - usedSlans),
    cancelled,
    usageLimit,
    usedSlans,
    slansPercentage: usageLimit > 0 ? (usedSlans * 100) / usageLimit : 0,
    excededSlans,
    extraPrice: record.extraUsagePrice * excededSlans,
    // A cancelled plan will not charge again, so there is no next payment to announce.
    nextPaymentDate: cancelled ? null : record.currentPeriodEnd,
    paymentFailed: record.paymentFailed,
    // Spec §9: past the limit a paid plan goes on at its extra price; a trial never does.
    extraSlanPrice: active && !trialing && record.extraUsagePrice > 0 ? record.extraUsagePrice : null,
  };
}

/** The compact view the top bar reads. */
export function toLauncherView(usage: SubscriptionUsage): LauncherSubscription {
  return { active: usage.active, trialing: usage.trialing, name: usage.name, balance: usage.balance };
}

export type UsageBanner = 'none' | 'warning' | 'exceeded';

/** Spec §4/§9: banner from 90% of the limit, bar red from 100%. */
export function usageBanner(percentage: number): UsageBanner {
  if (percentage >= 100) return 'exceeded';
  if (percentage >= 90) return 'warning';
  return 'none';
}
