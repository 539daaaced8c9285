// SCAFFOLD (issue 26 contract): replaced by the colleagues work.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';

export interface ColleaguesDeps {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export class Colleagues {
  constructor(readonly deps: ColleaguesDeps) {}
}
