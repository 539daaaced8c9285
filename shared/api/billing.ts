import { z } from 'zod/mini';
import { compactIdentifier, isValidCif, isValidNie, isValidNif } from '../validation/identifiers.ts';
import { subscriptionUsageSchema } from '../domain/subscription.ts';

/**
 * Paying (issue 26, spec §3 'Subscription' full view, §7 'subscriptions' and usage-report): plans from
 * Stripe prices, checkout on Stripe's hosted page, cards through hosted setup, billing info on the
 * invoices, a change of plan at the next period, cancel at period end and resume, invoices with their
 * PDFs, and the credit ledger. Webhooks (POST stripeWebhook, Stripe-Signature checked) are the source
 * of truth for the subscription's state; the calls here only ask Stripe to act.
 *
 * Every change answers 409 PAYMENTS_NOT_CONFIGURED when the server has no Stripe keys (a local install:
 * the request is fine, this server cannot carry it out; like mail's OAUTH_NOT_CONFIGURED, not a 5xx).
 * Changing anything (checkout, cards, billing info, plan, cancel) is for the firm's owner: a member gets
 * 403 OWNER_ONLY. Reading (plans, subscription, invoices, ledger) is for every member of the firm.
 */
export const billingPaths = {
  /** GET -> { items: Plan[] }: the plans on offer (Stripe prices; without Stripe, the seeded plans). */
  prices: '/api/subscriptions/prices',
  /** GET -> SubscriptionFull: the full view of spec §3. */
  subscription: '/api/subscriptions',
  /**
   * POST { planRef } -> { url }: Stripe's hosted checkout to subscribe (mode subscription). 409 ALREADY_SUBSCRIBED when a paid plan is
   * running; 409 BILLING_INFO_REQUIRED before the firm's billing info is saved (its first invoice must carry the name and NIF).
   */
  checkoutSession: '/api/subscriptions/checkout-session',
  /** POST -> { url }: Stripe's hosted page to add a card (checkout mode setup, a SetupIntent underneath). */
  setupIntent: '/api/subscriptions/setup-intent',
  /** GET -> { items: PaymentMethod[] }. */
  paymentMethods: '/api/subscriptions/payment-methods',
  /** DELETE: detaches the card (409 LAST_CARD when it is the default card of a running paid plan). */
  paymentMethod: '/api/subscriptions/payment-methods/:id',
  /** PUT (no body): makes it the card invoices are charged to. */
  defaultPaymentMethod: '/api/subscriptions/payment-methods/:id/default',
  /** GET -> BillingInfo | null when none yet; PUT BillingInfo -> BillingInfo (also sent to the Stripe customer). */
  billingInfo: '/api/subscriptions/billing-info',
  /** POST { planRef } -> SubscriptionFull: the plan from the next period on (a schedule phase). DELETE: keep the current plan. */
  nextPhase: '/api/subscriptions/next-phase',
  /** POST -> SubscriptionFull: cancel at the period's end. */
  cancel: '/api/subscriptions/cancel',
  /** POST -> SubscriptionFull: undo a cancel before the period ends. */
  resume: '/api/subscriptions/resume',
  /** GET -> { items: Invoice[] }: newest first. */
  invoices: '/api/subscriptions/invoices',
  /** POST, Stripe only: raw JSON body, Stripe-Signature header. 400 on a bad signature; 200 otherwise (also for a replay). */
  stripeWebhook: '/api/stripe/webhook',
  /** GET ?from&to&cursor -> UsageReport: the ledger of a period (default: the current one). */
  usageReport: '/api/usage-report',
  /** GET ?from&to -> an .xlsx of the whole ledger of the period (streamed). */
  usageReportExport: '/api/usage-report/export',
} as const;

// ---------------------------------------------------------------------------------------------------
// Messages

export const PAYMENTS_NOT_CONFIGURED_MESSAGE = 'Los pagos en línea no están configurados en este servidor. Escribe a soporte para contratar un plan.';
export const OWNER_ONLY_MESSAGE = 'Solo el titular de la cuenta puede cambiar el plan, las tarjetas o los datos de facturación.';
export const PLAN_NOT_FOUND_MESSAGE = 'Ese plan no existe o ya no se ofrece';
export const BILLING_INFO_REQUIRED_MESSAGE = 'Antes de contratar, completa los datos de facturación: aparecerán en tus facturas.';
export const ALREADY_SUBSCRIBED_MESSAGE = 'Tu empresa ya tiene un plan de pago activo. Para cambiarlo, elige el nuevo plan para el próximo periodo.';
export const NO_PAID_SUBSCRIPTION_MESSAGE = 'Tu empresa no tiene un plan de pago activo';
export const PAYMENT_METHOD_NOT_FOUND_MESSAGE = 'No se ha encontrado esa tarjeta';
export const LAST_CARD_MESSAGE = 'No puedes quitar la única tarjeta de un plan activo. Añade otra antes o cancela el plan.';
export const STRIPE_UNAVAILABLE_MESSAGE = 'No se ha podido contactar con el servicio de pagos. Inténtalo de nuevo en unos minutos.';
// past_due is not active (spec §9): launches are refused until the invoice is paid, so the banner says so.
export const PAYMENT_FAILED_BANNER = 'No se ha podido cobrar la última factura. Hasta que se pague no se pueden lanzar robots: revisa tu tarjeta.';

// ---------------------------------------------------------------------------------------------------
// Plans and the subscription

export const planSchema = z.object({
  ref: z.string(),
  name: z.string(),
  /** Euros per period. */
  basePrice: z.number(),
  /** Slans included in each period (usageLimit). */
  usageLimit: z.number(),
  /** Euros per slan past the limit. */
  extraUsagePrice: z.number(),
  /** The firm is on this plan now. */
  current: z.boolean(),
});
export type Plan = z.infer<typeof planSchema>;
export const plansResponseSchema = z.object({ items: z.array(planSchema) });
export type PlansResponse = z.infer<typeof plansResponseSchema>;

export const paymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number(),
  expYear: z.number(),
  isDefault: z.boolean(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export const paymentMethodsResponseSchema = z.object({ items: z.array(paymentMethodSchema) });

/**
 * Stripe statuses in which a firm's paid plan runs and is charged: a second checkout is refused and a
 * plan change waits for the next period. The page and the server both read it, so they agree on what
 * the firm may do (incomplete, unpaid or paused plans may subscribe again).
 */
export const RUNNING_SUB_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];
export const isRunningSubscription = (status: string): boolean => RUNNING_SUB_STATUSES.includes(status);

export const STRIPE_SUB_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused'] as const;

/** Spec §3 Subscription, full view: the stored Stripe facts plus the derived usage figures. */
export const subscriptionFullSchema = z.extend(subscriptionUsageSchema, {
  /** Null on the trial (no Stripe subscription yet). */
  stripeSub: z.nullable(
    z.object({
      status: z.enum(STRIPE_SUB_STATUSES),
      currentPeriodEnd: z.string(),
      /** When it ends after a cancel; null while it renews. */
      cancelAt: z.nullable(z.string()),
    }),
  ),
  ref: z.string(),
  basePrice: z.number(),
  extraUsagePrice: z.number(),
  stripePaymentMethods: z.array(paymentMethodSchema),
  scheduleSubNextPhaseRef: z.nullable(z.string()),
  scheduleSubNextPhaseName: z.nullable(z.string()),
  /** The latest invoice could not be charged (banner and email). */
  paymentFailed: z.boolean(),
  /** The server talks to Stripe; false on a local install (the page says to write to support). */
  paymentsEnabled: z.boolean(),
  /** The caller is the firm's owner, who may change the plan, the cards and the billing info. */
  canManage: z.boolean(),
});
export type SubscriptionFull = z.infer<typeof subscriptionFullSchema>;

export const planChoiceSchema = z.strictObject({ planRef: z.string().check(z.minLength(1), z.maxLength(60)) });
export type PlanChoice = z.infer<typeof planChoiceSchema>;
export const redirectResponseSchema = z.object({ url: z.string() });
export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// Billing info

/** A Spanish tax id as invoices need it: a valid NIF, NIE or CIF, compacted and upper-case. */
export function isValidTaxId(value: string): boolean {
  const compact = compactIdentifier(value);
  return isValidNif(compact) || isValidNie(compact) || isValidCif(compact);
}
export const TAX_ID_INVALID_MESSAGE = 'Introduce un NIF, NIE o CIF válido';

const text = (max: number, required: string) => z.string().check(z.trim(), z.minLength(1, required), z.maxLength(max, `Máximo ${max} caracteres`));

export const billingInfoSchema = z.strictObject({
  name: text(200, 'Indica el nombre o la razón social'),
  taxId: z.string().check(z.trim(), z.refine(isValidTaxId, TAX_ID_INVALID_MESSAGE)),
  email: z.email('Introduce una dirección de correo electrónico válida'),
  addressLine1: text(200, 'Indica la dirección'),
  addressLine2: z.optional(z.string().check(z.maxLength(200, 'Máximo 200 caracteres'))),
  postalCode: z.string().check(z.trim(), z.regex(/^\d{5}$/, 'El código postal tiene 5 cifras')),
  city: text(100, 'Indica la localidad'),
  province: text(100, 'Indica la provincia'),
  /** Spain only for now: invoices carry Spanish VAT. */
  country: z.literal('ES'),
});
export type BillingInfo = z.infer<typeof billingInfoSchema>;
/** GET billingInfo: null until the owner saves it (a 200, so a page that asks logs no error). */
export const billingInfoResponseSchema = z.nullable(billingInfoSchema);

// ---------------------------------------------------------------------------------------------------
// Invoices

export const invoiceSchema = z.object({
  id: z.string(),
  number: z.nullable(z.string()),
  status: z.enum(['draft', 'open', 'paid', 'uncollectible', 'void']),
  /** Euros. */
  total: z.number(),
  amountPaid: z.number(),
  currency: z.string(),
  createdAt: z.string(),
  periodStart: z.nullable(z.string()),
  periodEnd: z.nullable(z.string()),
  pdfUrl: z.nullable(z.string()),
  hostedUrl: z.nullable(z.string()),
  paymentFailed: z.boolean(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export const invoicesResponseSchema = z.object({ items: z.array(invoiceSchema) });

// ---------------------------------------------------------------------------------------------------
// The credit ledger (usage-report)

/** charge: a run's cost; credit: the slans a period (or the trial) gave. */
export const LEDGER_KINDS = ['charge', 'credit'] as const;

export const ledgerEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(LEDGER_KINDS),
  at: z.string(),
  /** A charge's run, robot and who launched it; null on a credit. */
  runId: z.nullable(z.string()),
  robot: z.nullable(z.string()),
  user: z.nullable(z.object({ name: z.string(), email: z.string() })),
  /** Units the robot reported (rows, entries…) and the unit's name; null on a credit. */
  units: z.nullable(z.number()),
  unitName: z.nullable(z.string()),
  /** Slans: negative for a charge, positive for a credit. */
  slans: z.number(),
  /** Of this charge, slans past the plan's limit, billed at extraUsagePrice. */
  extraSlans: z.number(),
  /**
   * Euros of this line: a charge's extra slans × the € per slan its usage report was sent at (what
   * Stripe's invoice bills for it). Null when the line bills no money (within the plan, a credit).
   */
  extraPrice: z.optional(z.nullable(z.number())),
  /** A credit's reason in words ('Plan Profesional: periodo del 01/11/2026 al 30/11/2026'). */
  description: z.nullable(z.string()),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const usageReportQuerySchema = z.strictObject({
  /** ISO date-times; default the current period. */
  from: z.optional(z.iso.datetime({ offset: true })),
  to: z.optional(z.iso.datetime({ offset: true })),
  /** Opaque, from the previous page's nextCursor. */
  cursor: z.optional(z.string().check(z.maxLength(200))),
});
export type UsageReportQuery = z.infer<typeof usageReportQuerySchema>;

export const USAGE_REPORT_PAGE_SIZE = 50;

export const usageReportSchema = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  totals: z.object({
    /** Sum of the charges' slans (positive) and of the credits. */
    charged: z.number(),
    credited: z.number(),
    runs: z.number(),
    extraSlans: z.number(),
    /** Euros: extraSlans × extraUsagePrice. */
    extraPrice: z.number(),
  }),
  items: z.array(ledgerEntrySchema),
  nextCursor: z.nullable(z.string()),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
