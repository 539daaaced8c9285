import { z } from 'zod/mini';

/** The compact view the top bar needs (spec §3 Subscription, launcher view). */
export const launcherSubscriptionSchema = z.object({
  active: z.boolean(),
  trialing: z.boolean(),
  name: z.string(),
  balance: z.number(),
});
export type LauncherSubscription = z.infer<typeof launcherSubscriptionSchema>;

/** Usage of the current period, with the figures the status card and banner derive from. */
export const subscriptionUsageSchema = z.extend(launcherSubscriptionSchema, {
  cancelled: z.boolean(),
  usageLimit: z.number(),
  usedSlans: z.number(),
  slansPercentage: z.number(),
  excededSlans: z.number(),
  extraPrice: z.number(),
  nextPaymentDate: z.nullable(z.string()),
  /** Stripe could not charge the latest invoice (the shell's banner, issue 26). */
  paymentFailed: z.boolean(),
  /**
   * € per slan past the plan's limit when the plan lets usage go on past it (a paid plan running that
   * bills extra usage); null when it cannot (a trial, an inactive plan). Optional for older servers.
   */
  extraSlanPrice: z.optional(z.nullable(z.number())),
});
export type SubscriptionUsage = z.infer<typeof subscriptionUsageSchema>;
