// SCAFFOLD (issue 26 contract): replaced by the billing-sync work.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
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

/** Sends the pending billing_usage_reports to Stripe's meter, once per run. */
export class UsageReporter {
  constructor(readonly deps: UsageReporterDeps) {}
  async run(): Promise<void> {}
}
