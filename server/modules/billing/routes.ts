import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  billingInfoResponseSchema, billingInfoSchema, billingPaths, invoicesResponseSchema, paymentMethodsResponseSchema, planChoiceSchema, plansResponseSchema, redirectResponseSchema,
  subscriptionFullSchema,
} from '#shared/api/billing.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { requireSession } from '../../http/session.ts';
import type { BillingAccount } from './account.ts';

/** Stripe's ids are short words of letters, digits and underscores (pm_…). */
const cardParamsSchema = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_]{1,100}$/, 'El identificador de la tarjeta no es válido')) });

/**
 * The firm's account with Stripe (shared/api/billing.ts, but the webhook and the usage report). HTTP
 * only: BillingAccount checks who may change what and talks to Stripe.
 */
export function registerBillingRoutes(app: FastifyInstance, ctx: AppContext, billing: BillingAccount): void {
  const tag = 'billing';

  app.get(billingPaths.prices, { schema: routeSchema({ tag, summary: 'The paid plans on offer, cheapest first, marking the firm’s', response: { 200: plansResponseSchema } }) }, async (request) => ({
    items: await billing.plans(await requireSession(request, ctx)),
  }));

  app.get(billingPaths.subscription, { schema: routeSchema({ tag, summary: 'The full subscription view: usage, Stripe status, cards, next plan', response: { 200: subscriptionFullSchema } }) }, async (request) =>
    billing.subscription(await requireSession(request, ctx)),
  );

  const checkoutSchema = routeSchema({ tag, summary: "Stripe's hosted checkout for a plan (owner only)", body: planChoiceSchema, response: { 200: redirectResponseSchema } });
  app.post(billingPaths.checkoutSession, { schema: checkoutSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    return billing.checkout(session, parseInput(planChoiceSchema, request.body).planRef);
  });

  const setupSchema = routeSchema({ tag, summary: "Stripe's hosted page to add a card (owner only)", response: { 200: redirectResponseSchema } });
  app.post(billingPaths.setupIntent, { schema: setupSchema }, async (request) => billing.cardSetup(await requireSession(request, ctx)));

  app.get(billingPaths.paymentMethods, { schema: routeSchema({ tag, summary: 'The firm’s cards, read from Stripe', response: { 200: paymentMethodsResponseSchema } }) }, async (request) => ({
    items: await billing.cards(await requireSession(request, ctx)),
  }));

  const removeSchema = routeSchema({ tag, summary: 'Remove a card of the firm (owner only; never the only card of a running plan)', params: cardParamsSchema, response: { 204: null } });
  app.delete(billingPaths.paymentMethod, { schema: removeSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await billing.removeCard(session, parseInput(cardParamsSchema, request.params).id);
    return reply.status(204).send();
  });

  const defaultSchema = routeSchema({ tag, summary: 'Make a card the one invoices are charged to (owner only)', params: cardParamsSchema, response: { 204: null } });
  app.put(billingPaths.defaultPaymentMethod, { schema: defaultSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    await billing.makeDefaultCard(session, parseInput(cardParamsSchema, request.params).id);
    return reply.status(204).send();
  });

  app.get(billingPaths.billingInfo, { schema: routeSchema({ tag, summary: 'The name, tax id and address on the invoices (null when none yet)', response: { 200: billingInfoResponseSchema } }) }, async (request, reply) =>
    // A null body is sent as JSON 'null' (the serializer would otherwise answer an empty body).
    reply.type('application/json').send(JSON.stringify(await billing.billingInfo(await requireSession(request, ctx)))),
  );

  const billingInfoPut = routeSchema({ tag, summary: 'Save the billing info, at Stripe first (owner only)', body: billingInfoSchema, response: { 200: billingInfoSchema } });
  app.put(billingPaths.billingInfo, { schema: billingInfoPut }, async (request) => {
    const session = await requireSession(request, ctx);
    return billing.saveBillingInfo(session, parseInput(billingInfoSchema, request.body));
  });

  const nextPhaseSchema = routeSchema({ tag, summary: 'Change to another plan from the next period on (owner only)', body: planChoiceSchema, response: { 200: subscriptionFullSchema } });
  app.post(billingPaths.nextPhase, { schema: nextPhaseSchema }, async (request) => {
    const session = await requireSession(request, ctx);
    return billing.scheduleNextPlan(session, parseInput(planChoiceSchema, request.body).planRef);
  });

  app.delete(billingPaths.nextPhase, { schema: routeSchema({ tag, summary: 'Keep the current plan: drop the pending change (owner only)', response: { 204: null } }) }, async (request, reply) => {
    await billing.keepCurrentPlan(await requireSession(request, ctx));
    return reply.status(204).send();
  });

  app.post(billingPaths.cancel, { schema: routeSchema({ tag, summary: 'Cancel the plan at the period’s end (owner only)', response: { 200: subscriptionFullSchema } }) }, async (request) =>
    billing.cancel(await requireSession(request, ctx)),
  );

  app.post(billingPaths.resume, { schema: routeSchema({ tag, summary: 'Undo a cancel before the period ends (owner only)', response: { 200: subscriptionFullSchema } }) }, async (request) =>
    billing.resume(await requireSession(request, ctx)),
  );

  app.get(billingPaths.invoices, { schema: routeSchema({ tag, summary: 'The firm’s invoices, newest first', response: { 200: invoicesResponseSchema } }) }, async (request) => ({
    items: await billing.invoices(await requireSession(request, ctx)),
  }));
}
