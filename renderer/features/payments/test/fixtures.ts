import {
  billingInfoSchema, invoiceSchema, ledgerEntrySchema, paymentMethodSchema, planSchema, subscriptionFullSchema, usageReportSchema,
} from '#shared/api/billing.ts';
import type { BillingInfo, Invoice, LedgerEntry, PaymentMethod, Plan, SubscriptionFull, UsageReport } from '#shared/api/billing.ts';
import { jsonResponse, mockApi } from '../../../test/renderApp.tsx';

// Every answer goes through the contract's schema: a change in shared/api/billing.ts breaks these fixtures first.

/** A firm on the paid 'Básico' plan, renewing on 30/11/2026, owner signed in, Stripe on. */
export function subscription(overrides: Partial<SubscriptionFull> = {}): SubscriptionFull {
  return subscriptionFullSchema.parse({
    active: true, trialing: false, name: 'Básico', balance: 1200, cancelled: false, usageLimit: 2000, usedSlans: 800,
    slansPercentage: 40, excededSlans: 0, extraPrice: 0, nextPaymentDate: '2026-11-30T10:00:00.000Z', paymentFailed: false,
    stripeSub: { status: 'active', currentPeriodEnd: '2026-11-30T10:00:00.000Z', cancelAt: null },
    ref: 'basico', basePrice: 49, extraUsagePrice: 0.03, stripePaymentMethods: [], scheduleSubNextPhaseRef: null,
    scheduleSubNextPhaseName: null, paymentsEnabled: true, canManage: true,
    ...overrides,
  });
}

/** The 30-day trial: no Stripe subscription yet. */
export const trial = (overrides: Partial<SubscriptionFull> = {}) =>
  subscription({ trialing: true, name: 'Prueba', ref: 'trial', basePrice: 0, stripeSub: null, nextPaymentDate: null, ...overrides });

export function plans(currentRef = 'basico'): Plan[] {
  return [
    { ref: 'basico', name: 'Básico', basePrice: 49, usageLimit: 2000, extraUsagePrice: 0.03 },
    { ref: 'profesional', name: 'Profesional', basePrice: 99, usageLimit: 5000, extraUsagePrice: 0.02 },
  ].map((plan) => planSchema.parse({ ...plan, current: plan.ref === currentRef }));
}

export const card = (overrides: Partial<PaymentMethod> = {}): PaymentMethod =>
  paymentMethodSchema.parse({ id: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, isDefault: true, ...overrides });

export const billingInfo = (overrides: Partial<BillingInfo> = {}): BillingInfo =>
  billingInfoSchema.parse({
    name: 'Asesoría Pérez SL', taxId: 'B12345674', email: 'facturas@asesoria.es', addressLine1: 'Calle Mayor 1',
    postalCode: '28013', city: 'Madrid', province: 'Madrid', country: 'ES', ...overrides,
  });

export const invoice = (overrides: Partial<Invoice> = {}): Invoice =>
  invoiceSchema.parse({
    id: 'in_1', number: 'AA-0001', status: 'paid', total: 49, amountPaid: 49, currency: 'eur', createdAt: '2026-10-31T10:00:00.000Z',
    periodStart: '2026-10-31T10:00:00.000Z', periodEnd: '2026-11-30T10:00:00.000Z', pdfUrl: 'https://pay.stripe.com/invoice/in_1/pdf',
    hostedUrl: null, paymentFailed: false, ...overrides,
  });

export const ledgerEntry = (overrides: Partial<LedgerEntry> = {}): LedgerEntry =>
  ledgerEntrySchema.parse({
    id: 'le_1', kind: 'charge', at: '2026-11-10T09:30:00.000Z', runId: 'run_1', robot: 'Modelo 111',
    user: { name: 'Ana', email: 'ana@asesoria.es' }, units: 12, unitName: 'declaraciones', slans: -12, extraSlans: 0, description: null,
    ...overrides,
  });

export const report = (overrides: Partial<UsageReport> = {}): UsageReport =>
  usageReportSchema.parse({
    period: { from: '2026-10-31T10:00:00.000Z', to: '2026-11-30T10:00:00.000Z' },
    totals: { charged: 2120, credited: 2000, runs: 37, extraSlans: 120, extraPrice: 3.6 },
    items: [ledgerEntry()],
    nextCursor: null,
    ...overrides,
  });

type Handler = (body: unknown) => Response | Promise<Response>;

/** The calls /payments makes on load, each answerable differently per test. */
export function paymentsApi(sub: SubscriptionFull, routes: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/subscriptions': () => jsonResponse(200, sub),
    'GET /api/subscriptions/prices': () => jsonResponse(200, { items: plans(sub.ref) }),
    'GET /api/subscriptions/payment-methods': () => jsonResponse(200, { items: [card()] }),
    'GET /api/subscriptions/billing-info': () => jsonResponse(200, billingInfo()),
    'GET /api/subscriptions/invoices': () => jsonResponse(200, { items: [invoice()] }),
    'GET /api/subscriptions/usage': () => jsonResponse(200, sub),
    ...routes,
  });
}

export const apiError = (statusCode: number, code: string, message: string, issues?: { path: string; message: string }[]) =>
  jsonResponse(statusCode, { statusCode, code, message, ...(issues && { issues }) });
