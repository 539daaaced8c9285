import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';
import type { BillingConfig } from './config.ts';
import type { StripeClient } from './stripe-client.ts';

export interface UsageReporterDeps {
  db: Kysely<Database>;
  now: () => Date;
  stripe: StripeClient | null;
  config: BillingConfig | null;
  log: FastifyBaseLogger;
}

/** Statuses of a paid Stripe subscription whose usage past the limit is billed. */
const BILLED_STATUSES: readonly string[] = ['active', 'past_due'];

/**
 * In the charge's transaction (runs/closing.ts), before used_slans grows by `cost`: the part of this
 * run's cost past the plan's limit, kept to be reported to Stripe's meter once. Only a firm on a paid
 * Stripe subscription is billed for it (a trial never goes past its limit: the reservation holds).
 */
export async function recordExtraUsage(trx: Transaction<Database>, charge: { groupId: string; runId: string; cost: number; now: Date }): Promise<void> {
  // The row's lock first (a no-op write; SQLite has one writer anyway): two runs closing at once on
  // PostgreSQL would otherwise both read the same used_slans and each bill only its own share past it.
  await trx.updateTable('subscriptions').set((eb) => ({ used_slans: eb.ref('used_slans') })).where('group_id', '=', charge.groupId).execute();
  const sub = await trx
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .select(['subscriptions.used_slans', 'subscriptions.status', 'subscriptions.stripe_subscription_id', 'subscriptions.current_period_end', 'plans.usage_limit', 'plans.extra_usage_price'])
    .where('subscriptions.group_id', '=', charge.groupId)
    .executeTakeFirst();
  if (!sub?.stripe_subscription_id || !BILLED_STATUSES.includes(sub.status)) return;
  // Stripe has begun the next period but its webhook has not reset the counter yet: this cost belongs to
  // the new period, where the rollover counts it from the ledger (subscription-state.ts), not as extra.
  if (Date.parse(sub.current_period_end) <= charge.now.getTime()) return;
  const limit = Number(sub.usage_limit);
  const before = Number(sub.used_slans);
  const extra = Math.max(0, before + charge.cost - limit) - Math.max(0, before - limit);
  if (extra <= 0) return;
  await trx
    .insertInto('billing_usage_reports')
    .values({ run_id: charge.runId, group_id: charge.groupId, slans: extra, extra_usage_price: Number(sub.extra_usage_price), milli_slans: Math.round(extra * 1000), state: 'pending', attempts: 0, next_attempt_at: null, last_error: null, created_at: charge.now.toISOString(), reported_at: null })
    .onConflict((oc) => oc.column('run_id').doNothing())
    .execute();
}

/** How long a claimed report is ours before another pass may take it again (a crash mid-send). */
const LEASE_MS = 5 * 60_000;
/** Reports taken per query; a pass goes on until none is due. */
const BATCH = 25;
const MAX_BACKOFF_MS = 60 * 60_000;

/** Seconds to wait before attempt n + 1: 30 s, 1 min, 2 min… up to an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/** Whether trying again may work: the network, Stripe's 5xx, 429 or a lock; not a refused request. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof Stripe.errors.StripeError)) return true;
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError) return true;
  const status = error.statusCode ?? 0;
  return status === 0 || status === 409 || status === 429 || status >= 500;
}

interface DueReport {
  run_id: string;
  group_id: string;
  milli_slans: number;
  attempts: number;
  created_at: string;
}

/**
 * Sends the pending billing_usage_reports to Stripe's meter, once per run. A report is claimed with a
 * guarded update before it is sent (two processes never send one run twice), and the meter event
 * carries the run as identifier and idempotency key, so even a resend after a crash counts once.
 */
export class UsageReporter {
  constructor(readonly deps: UsageReporterDeps) {}

  async run(): Promise<void> {
    const { stripe, config } = this.deps;
    if (!stripe || !config) return;
    for (;;) {
      const due = await this.due();
      if (due.length === 0) return;
      for (const report of due) {
        if (await this.claim(report)) await this.send(stripe, config, report);
      }
      if (due.length < BATCH) return;
    }
  }

  private async due(): Promise<DueReport[]> {
    const now = this.deps.now().toISOString();
    return this.deps.db
      .selectFrom('billing_usage_reports')
      .select(['run_id', 'group_id', 'milli_slans', 'attempts', 'created_at'])
      .where('state', '=', 'pending')
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
  }

  /** Takes the report for this pass: only one process's update finds it still at its attempt count. */
  private async claim(report: DueReport): Promise<boolean> {
    const now = this.deps.now();
    const result = await this.deps.db
      .updateTable('billing_usage_reports')
      .set({ attempts: report.attempts + 1, next_attempt_at: new Date(now.getTime() + LEASE_MS).toISOString() })
      .where('run_id', '=', report.run_id)
      .where('state', '=', 'pending')
      .where('attempts', '=', report.attempts)
      .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now.toISOString())]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async send(stripe: StripeClient, config: BillingConfig, report: DueReport): Promise<void> {
    const { db, log } = this.deps;
    const sub = await db.selectFrom('subscriptions').select('stripe_customer_id').where('group_id', '=', report.group_id).executeTakeFirst();
    const customerId = sub?.stripe_customer_id ?? null;
    if (!customerId) {
      await this.finish(report.run_id, { state: 'failed', last_error: 'La empresa no tiene cliente en Stripe' });
      return;
    }
    try {
      await stripe.billing.meterEvents.create(
        {
          event_name: config.meterEventName,
          payload: { stripe_customer_id: customerId, value: String(report.milli_slans) },
          identifier: `run-${report.run_id}`,
          timestamp: Math.floor(Date.parse(report.created_at) / 1000),
        },
        { idempotencyKey: `meter-run-${report.run_id}` },
      );
      await this.finish(report.run_id, { state: 'sent', reported_at: this.deps.now().toISOString(), last_error: null });
    } catch (error) {
      const message = error instanceof Error ? error.message.slice(0, 1000) : String(error);
      if (isTransient(error)) {
        const attempts = report.attempts + 1;
        await this.finish(report.run_id, { state: 'pending', next_attempt_at: new Date(this.deps.now().getTime() + backoffMs(attempts)).toISOString(), last_error: message });
        log.warn({ err: error, runId: report.run_id }, 'Stripe no ha recibido el consumo por encima del plan; se reintentará');
      } else {
        await this.finish(report.run_id, { state: 'failed', last_error: message });
        log.error({ err: error, runId: report.run_id }, 'Stripe ha rechazado el consumo por encima del plan');
      }
    }
  }

  private async finish(runId: string, set: { state: 'pending' | 'sent' | 'failed'; last_error: string | null; reported_at?: string; next_attempt_at?: string }): Promise<void> {
    await this.deps.db
      .updateTable('billing_usage_reports')
      .set({ next_attempt_at: null, ...set })
      .where('run_id', '=', runId)
      .execute();
  }
}
