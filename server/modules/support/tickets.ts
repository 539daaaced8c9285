// SCAFFOLD (issue 26 contract): replaced by the support-tickets work.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { SupportConfig } from './config.ts';

export interface SupportTicketsDeps {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  publicUrl: string;
  support: SupportConfig;
  log: FastifyBaseLogger;
}

export class SupportTickets {
  constructor(readonly deps: SupportTicketsDeps) {}
}
