import { sql, type Kysely } from 'kysely';
import type { FlowlogStats } from '#shared/api/flows.ts';
import type { Database } from '../../db/schema.ts';

/**
 * The history's counters (GET /api/flowlog/stats): the runs and credits of the current billing period.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the group's current billing period began. Subscriptions store only its end: a trial lasts its
 * plan's trial days, a paid plan renews monthly (Stripe's calendar month, so the start is the same day
 * one month earlier, clamped to that month's length). With no subscription, the last 30 days.
 */
export async function billingPeriodStart(db: Kysely<Database>, groupId: string, now: Date): Promise<Date> {
  const subscription = await db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select(['subscriptions.status', 'subscriptions.current_period_end', 'plans.trial_days'])
    .where('subscriptions.group_id', '=', groupId)
    .executeTakeFirst();
  const end = subscription ? new Date(subscription.current_period_end) : null;
  if (!subscription || !end || Number.isNaN(end.getTime())) return new Date(now.getTime() - 30 * DAY_MS);
  if (subscription.status === 'trialing' && subscription.trial_days !== null) return new Date(end.getTime() - Number(subscription.trial_days) * DAY_MS);
  return oneMonthBefore(end);
}

function oneMonthBefore(instant: Date): Date {
  const start = new Date(instant);
  const day = start.getUTCDate();
  start.setUTCDate(1);
  start.setUTCMonth(start.getUTCMonth() - 1);
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  start.setUTCDate(Math.min(day, lastDay));
  return start;
}

/**
 * Figures of the current billing period (billingPeriodStart): runs launched in it by result, their
 * iterations, and the credits the ledger charged in it, which is what the balance was reduced by.
 * Runs still going count in total but under no result.
 */
export async function flowlogStats(db: Kysely<Database>, groupId: string, now: Date): Promise<FlowlogStats> {
  const since = (await billingPeriodStart(db, groupId, now)).toISOString();
  const [byResult, charged] = await Promise.all([
    db
      .selectFrom('flow_runs')
      .select((eb) => [
        'result',
        eb.fn.countAll<number>().as('runs'),
        eb.fn.sum<number>('successful_iterations').as('successful'),
        eb.fn.sum<number>('total_iterations').as('iterations'),
      ])
      .where('group_id', '=', groupId)
      .where('created_at', '>=', since)
      .groupBy('result')
      .execute(),
    db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('amount'))
      .where('group_id', '=', groupId)
      .where('created_at', '>=', since)
      .executeTakeFirst(),
  ]);
  const stats: FlowlogStats = { total: 0, byResult: {}, cost: Number(charged?.amount ?? 0), successfulIterations: 0, totalIterations: 0 };
  for (const row of byResult) {
    const runs = Number(row.runs);
    stats.total += runs;
    stats.successfulIterations += Number(row.successful ?? 0);
    stats.totalIterations += Number(row.iterations ?? 0);
    if (row.result !== null) stats.byResult[row.result] = runs;
  }
  return stats;
}
