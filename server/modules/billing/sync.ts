// SCAFFOLD (issue 26 contract): replaced by the billing-sync work.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { BillingConfig } from './config.ts';
import type { StripeClient } from './stripe-client.ts';

export interface BillingSyncDeps {
  db: Kysely<Database>;
  now: () => Date;
  stripe: StripeClient | null;
  config: BillingConfig | null;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export class BillingSync {
  constructor(readonly deps: BillingSyncDeps) {}
}
