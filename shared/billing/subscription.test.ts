import { describe, expect, it } from 'vitest';
import { deriveSubscription, toLauncherView, usageBanner, type SubscriptionRecord } from './subscription.ts';

const now = new Date('2025-03-10T12:00:00Z');

function record(overrides: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    name: 'Plan Pro',
    status: 'active',
    currentPeriodEnd: '2025-04-01T00:00:00.000Z',
    cancelAt: null,
    usageLimit: 200,
    usedSlans: 50,
    extraUsagePrice: 0.5,
    basePrice: 49,
    paymentFailed: false,
    ...overrides,
  };
}

describe('deriveSubscription', () => {
  it('gives an inactive, empty usage when there is no subscription', () => {
    expect(deriveSubscription(null, now)).toEqual({
      active: false, trialing: false, name: '', balance: 0, cancelled: false, usageLimit: 0,
      usedSlans: 0, slansPercentage: 0, excededSlans: 0, extraPrice: 0, nextPaymentDate: null, paymentFailed: false, extraSlanPrice: null,
    });
  });

  it('gives the € per slan past the limit only where usage may go past it: a paid plan running, never a trial or an ended plan', () => {
    expect(deriveSubscription(record(), now).extraSlanPrice).toBe(0.5);
    expect(deriveSubscription(record({ status: 'trialing' }), now).extraSlanPrice).toBeNull();
    expect(deriveSubscription(record({ status: 'past_due' }), now).extraSlanPrice).toBeNull();
    expect(deriveSubscription(record({ extraUsagePrice: 0 }), now).extraSlanPrice).toBeNull();
  });

  it('derives balance, percentage and next payment for an active plan within its limit', () => {
    const usage = deriveSubscription(record(), now);
    expect(usage).toMatchObject({
      active: true, trialing: false, cancelled: false, name: 'Plan Pro', balance: 150,
      slansPercentage: 25, excededSlans: 0, extraPrice: 0, nextPaymentDate: '2025-04-01T00:00:00.000Z', paymentFailed: false,
    });
  });

  it('charges the extra price per exceeded slan and never lets the balance go below 0', () => {
    const usage = deriveSubscription(record({ usedSlans: 230 }), now);
    expect(usage.balance).toBe(0);
    expect(usage.excededSlans).toBe(30);
    expect(usage.extraPrice).toBe(15);
    expect(usage.slansPercentage).toBe(115);
  });

  it('reports 0% when the plan has no limit instead of dividing by zero', () => {
    expect(deriveSubscription(record({ usageLimit: 0, usedSlans: 3 }), now).slansPercentage).toBe(0);
  });

  it('treats trialing as active and flags it', () => {
    const usage = deriveSubscription(record({ status: 'trialing' }), now);
    expect(usage.active).toBe(true);
    expect(usage.trialing).toBe(true);
  });

  it.each(['past_due', 'canceled', 'incomplete', 'unpaid'] as const)('is inactive when the status is %s', (status) => {
    expect(deriveSubscription(record({ status }), now).active).toBe(false);
  });

  it('is inactive once the period end is in the past, active up to that instant', () => {
    expect(deriveSubscription(record({ currentPeriodEnd: '2025-03-10T11:59:59Z' }), now).active).toBe(false);
    expect(deriveSubscription(record({ currentPeriodEnd: '2025-03-10T12:00:00Z' }), now).active).toBe(true);
  });

  it('is inactive when the period end is not a date', () => {
    expect(deriveSubscription(record({ currentPeriodEnd: 'soon' }), now).active).toBe(false);
  });

  it('has no next payment when the plan is cancelled or set to cancel', () => {
    const scheduled = deriveSubscription(record({ cancelAt: '2025-04-01T00:00:00Z' }), now);
    expect(scheduled.cancelled).toBe(true);
    expect(scheduled.active).toBe(true);
    expect(scheduled.nextPaymentDate).toBeNull();
    expect(deriveSubscription(record({ status: 'canceled' }), now).nextPaymentDate).toBeNull();
  });
});

describe('toLauncherView', () => {
  it('keeps only what the top bar needs', () => {
    expect(toLauncherView(deriveSubscription(record(), now))).toEqual({
      active: true, trialing: false, name: 'Plan Pro', balance: 150,
    });
  });
});

describe('usageBanner', () => {
  it.each([
    [0, 'none'], [89.99, 'none'], [90, 'warning'], [99.9, 'warning'], [100, 'exceeded'], [250, 'exceeded'],
  ] as const)('%s%% -> %s', (percentage, banner) => {
    expect(usageBanner(percentage)).toBe(banner);
  });
});
