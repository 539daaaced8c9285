import { launcherSubscriptionSchema, subscriptionUsageSchema } from '../domain/subscription.ts';

export const subscriptionsPaths = {
  launcher: '/api/subscriptions/launcher',
  usage: '/api/subscriptions/usage',
} as const;

export const launcherSubscriptionResponseSchema = launcherSubscriptionSchema;
export const subscriptionUsageResponseSchema = subscriptionUsageSchema;
export type { LauncherSubscription, SubscriptionUsage } from '../domain/subscription.ts';
