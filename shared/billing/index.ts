export { deriveSubscription, toLauncherView, usageBanner } from './subscription.ts';
export type { SubscriptionRecord, SubscriptionStatus, UsageBanner } from './subscription.ts';
export { creditUnitNames, formatCredits, formatMoney, formatUnitPrice } from './money.ts';
export type { CreditUnitNames } from './money.ts';
