import { describe, expect, it } from 'vitest';
import type { STRIPE_SUB_STATUSES } from '#shared/api/billing.ts';
import { hasRunningPaidPlan, invoiceStatus, statusText } from './paymentsModel.ts';
import { isBadDayRange } from '../../ui/dayRange.ts';
import { ledgerQuery, runHistoryUrl, signedSlans } from './ledgerModel.ts';
import { invoice, ledgerEntry, subscription, trial } from './test/fixtures.ts';

const stripe = (status: (typeof STRIPE_SUB_STATUSES)[number], cancelAt: string | null = null) =>
  subscription({ stripeSub: { status, currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt } });

describe('paymentsModel', () => {
  it('names the state as a firm reads it', () => {
    expect(statusText(trial())).toBe('Periodo de prueba');
    expect(statusText(stripe('active'))).toBe('Activo');
    expect(statusText(stripe('past_due'))).toBe('Pago pendiente');
    expect(statusText(stripe('canceled'))).toBe('Cancelado');
    expect(statusText(stripe('active', '2026-11-30T23:30:00.000Z'))).toBe('Se cancelará el 01/12/2026');
    // Once it has ended, the date to come no longer matters.
    expect(statusText(stripe('canceled', '2026-11-30T10:00:00.000Z'))).toBe('Cancelado');
  });

  it('counts a plan as running while Stripe charges it, as the server does (an unpaid or incomplete one may subscribe again)', () => {
    expect(hasRunningPaidPlan(trial())).toBe(false);
    expect(hasRunningPaidPlan(stripe('active'))).toBe(true);
    expect(hasRunningPaidPlan(stripe('past_due'))).toBe(true);
    expect(hasRunningPaidPlan(stripe('unpaid'))).toBe(false);
    expect(hasRunningPaidPlan(stripe('incomplete'))).toBe(false);
    expect(hasRunningPaidPlan(stripe('canceled'))).toBe(false);
    expect(hasRunningPaidPlan(stripe('incomplete_expired'))).toBe(false);
  });

  it('reads an open invoice that could not be charged as Impagada', () => {
    expect(invoiceStatus(invoice({ status: 'open' }))).toBe('open');
    expect(invoiceStatus(invoice({ status: 'open', paymentFailed: true }))).toBe('failed');
    expect(invoiceStatus(invoice({ status: 'uncollectible' }))).toBe('failed');
    expect(invoiceStatus(invoice({ status: 'void' }))).toBe('void');
  });
});

describe('ledgerModel', () => {
  it('asks for whole Madrid days, in summer and in winter', () => {
    expect(ledgerQuery({ from: '', to: '' })).toEqual({});
    expect(ledgerQuery({ from: '2026-07-01', to: '2026-12-31' })).toEqual({
      from: '2026-06-30T22:00:00.000Z',
      to: '2026-12-31T22:59:59.999Z',
    });
  });

  it('drops Hasta when it comes before Desde', () => {
    const range = { from: '2026-10-31', to: '2026-10-01' };
    expect(isBadDayRange(range)).toBe(true);
    expect(ledgerQuery(range)).toEqual({ from: '2026-10-30T23:00:00.000Z' });
  });

  it('signs the slans as a statement does', () => {
    expect(signedSlans(-12)).toBe('−12');
    expect(signedSlans(2000)).toBe('+2.000');
    expect(signedSlans(10_000)).toBe('+10.000');
    expect(signedSlans(0)).toBe('0');
  });

  it('links only a run to the history', () => {
    expect(runHistoryUrl(ledgerEntry())).toBe('/flows?q=Modelo+111&desde=2026-11-10&hasta=2026-11-10');
    expect(runHistoryUrl(ledgerEntry({ kind: 'credit', robot: null, runId: null }))).toBeNull();
  });
});
