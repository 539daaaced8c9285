// SCAFFOLD (issue 26 contract): replaced by the billing-account work. Signatures are the contract.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { BillingConfig } from './config.ts';
import type { StripeClient } from './stripe-client.ts';

export interface BillingAccountDeps {
  db: Kysely<Database>;
  now: () => Date;
  /** Null without STRIPE_SECRET_KEY: reads work from the database, changes answer 503. */
  stripe: StripeClient | null;
  config: BillingConfig | null;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export class BillingAccount {
  constructor(readonly deps: BillingAccountDeps) {}

  /** Plans from Stripe's prices into the plans table (at start, then hourly). */
  async syncPlans(): Promise<void> {}
}
