import type { FastifyInstance, FastifyRequest } from 'fastify';
import { launcherSubscriptionResponseSchema, subscriptionUsageResponseSchema, subscriptionsPaths } from '#shared/api/subscriptions.ts';
import { deriveSubscription, toLauncherView } from '#shared/billing/index.ts';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import type { AppContext } from '../../context.ts';
import { unauthenticated } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { requireSession } from '../../http/session.ts';
import { findUserById } from '../users/service.ts';
import { findSubscriptionRecord } from './service.ts';

/** The signed-in user's group subscription: the top bar's launcher view and the full usage. */
export function registerSubscriptionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function usageOf(request: FastifyRequest): Promise<SubscriptionUsage> {
    const session = await requireSession(request, ctx);
    const user = await findUserById(ctx.db, session.userId);
    if (!user) throw unauthenticated();
    return deriveSubscription(await findSubscriptionRecord(ctx.db, user.group_id), ctx.now());
  }

  const launcherSchema = routeSchema({ tag: 'subscriptions', summary: 'The group\'s subscription as the top bar shows it', response: { 200: launcherSubscriptionResponseSchema } });
  const usageSchema = routeSchema({ tag: 'subscriptions', summary: 'The group\'s subscription and usage', response: { 200: subscriptionUsageResponseSchema } });
  app.get(subscriptionsPaths.launcher, { schema: launcherSchema }, async (request) => toLauncherView(await usageOf(request)));
  app.get(subscriptionsPaths.usage, { schema: usageSchema }, async (request) => usageOf(request));
}
