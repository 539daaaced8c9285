import { pathFor } from '#shared/api/flows.ts';
import {
  billingInfoResponseSchema, billingInfoSchema, billingPaths, invoicesResponseSchema, paymentMethodsResponseSchema, plansResponseSchema, redirectResponseSchema,
  subscriptionFullSchema, usageReportSchema,
} from '#shared/api/billing.ts';
import type {
  BillingInfo, Invoice, PaymentMethod, Plan, PlanChoice, RedirectResponse, SubscriptionFull, UsageReport, UsageReportQuery,
} from '#shared/api/billing.ts';
import { baseApi } from './baseApi.ts';

/** The query string of a usage-report call (or its export): only the keys that are set. */
export function usageReportSearch(query: UsageReportQuery): string {
  const params = new URLSearchParams();
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.cursor) params.set('cursor', query.cursor);
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}

/** The ledger's .xlsx: a plain link, so the browser downloads it with the session cookie. */
export const usageReportExportUrl = (query: Omit<UsageReportQuery, 'cursor'>) => `${billingPaths.usageReportExport}${usageReportSearch(query)}`;

/**
 * Paying (shared/api/billing.ts). 'Billing' is the full subscription; a change to it also refreshes
 * 'Subscription' (the shell's usage view, top bar and banners). Cards, billing info and invoices have
 * their own tags: adding a card or paying an invoice changes them without touching the plan.
 */
export const billingApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Billing', 'Plans', 'PaymentMethods', 'BillingInfo', 'Invoices', 'UsageReport'] })
  .injectEndpoints({
    endpoints: (build) => ({
      subscriptionFull: build.query<SubscriptionFull, void>({
        query: () => billingPaths.subscription,
        transformResponse: (response: unknown) => subscriptionFullSchema.parse(response),
        providesTags: ['Billing'],
      }),
      plans: build.query<Plan[], void>({
        query: () => billingPaths.prices,
        transformResponse: (response: unknown) => plansResponseSchema.parse(response).items,
        providesTags: ['Plans'],
      }),
      checkoutSession: build.mutation<RedirectResponse, PlanChoice>({
        query: (body) => ({ url: billingPaths.checkoutSession, method: 'POST', body }),
        transformResponse: (response: unknown) => redirectResponseSchema.parse(response),
      }),
      setupIntent: build.mutation<RedirectResponse, void>({
        query: () => ({ url: billingPaths.setupIntent, method: 'POST' }),
        transformResponse: (response: unknown) => redirectResponseSchema.parse(response),
      }),
      paymentMethods: build.query<PaymentMethod[], void>({
        query: () => billingPaths.paymentMethods,
        transformResponse: (response: unknown) => paymentMethodsResponseSchema.parse(response).items,
        providesTags: ['PaymentMethods'],
      }),
      removePaymentMethod: build.mutation<void, string>({
        query: (id) => ({ url: pathFor(billingPaths.paymentMethod, { id }), method: 'DELETE' }),
        transformResponse: () => undefined,
        invalidatesTags: ['PaymentMethods', 'Billing'],
      }),
      makeDefaultPaymentMethod: build.mutation<void, string>({
        query: (id) => ({ url: pathFor(billingPaths.defaultPaymentMethod, { id }), method: 'PUT' }),
        transformResponse: () => undefined,
        invalidatesTags: ['PaymentMethods', 'Billing'],
      }),
      /** Null when the firm has not given its billing info yet (a 200 with null: no error in the console). */
      billingInfo: build.query<BillingInfo | null, void>({
        query: () => billingPaths.billingInfo,
        transformResponse: (response: unknown) => billingInfoResponseSchema.parse(response),
        providesTags: ['BillingInfo'],
      }),
      saveBillingInfo: build.mutation<BillingInfo, BillingInfo>({
        query: (body) => ({ url: billingPaths.billingInfo, method: 'PUT', body }),
        transformResponse: (response: unknown) => billingInfoSchema.parse(response),
        invalidatesTags: ['BillingInfo'],
      }),
      choosePlanForNextPeriod: build.mutation<SubscriptionFull, PlanChoice>({
        query: (body) => ({ url: billingPaths.nextPhase, method: 'POST', body }),
        transformResponse: (response: unknown) => subscriptionFullSchema.parse(response),
        invalidatesTags: ['Billing', 'Plans'],
      }),
      keepCurrentPlan: build.mutation<void, void>({
        query: () => ({ url: billingPaths.nextPhase, method: 'DELETE' }),
        transformResponse: () => undefined,
        invalidatesTags: ['Billing', 'Plans'],
      }),
      cancelPlan: build.mutation<SubscriptionFull, void>({
        query: () => ({ url: billingPaths.cancel, method: 'POST' }),
        transformResponse: (response: unknown) => subscriptionFullSchema.parse(response),
        invalidatesTags: ['Billing', 'Subscription'],
      }),
      resumePlan: build.mutation<SubscriptionFull, void>({
        query: () => ({ url: billingPaths.resume, method: 'POST' }),
        transformResponse: (response: unknown) => subscriptionFullSchema.parse(response),
        invalidatesTags: ['Billing', 'Subscription'],
      }),
      invoices: build.query<Invoice[], void>({
        query: () => billingPaths.invoices,
        transformResponse: (response: unknown) => invoicesResponseSchema.parse(response).items,
        providesTags: ['Invoices'],
      }),
      usageReport: build.query<UsageReport, UsageReportQuery>({
        query: (query) => `${billingPaths.usageReport}${usageReportSearch(query)}`,
        transformResponse: (response: unknown) => usageReportSchema.parse(response),
        providesTags: ['UsageReport'],
      }),
    }),
  });

export const {
  useSubscriptionFullQuery, usePlansQuery, useCheckoutSessionMutation, useSetupIntentMutation, usePaymentMethodsQuery,
  useRemovePaymentMethodMutation, useMakeDefaultPaymentMethodMutation, useBillingInfoQuery, useSaveBillingInfoMutation,
  useChoosePlanForNextPeriodMutation, useKeepCurrentPlanMutation, useCancelPlanMutation, useResumePlanMutation, useInvoicesQuery,
  useUsageReportQuery, useLazyUsageReportQuery,
} = billingApi;
