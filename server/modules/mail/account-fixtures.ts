/**
 * Test support: a linked mail account written straight into the database, for suites that need one
 * to exist (machine configs) without going through a provider. Its tokens are fixture data, sealed
 * like real ones. Not product code.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MailProvider } from '#shared/api/mail.ts';
import type { Database } from '../../db/schema.ts';
import { ephemeralSecretsBox, type SecretsBox } from '../../security/secrets.ts';

export interface SeedMailAccount {
  /** The user who linked it; the account belongs to their firm. */
  userEmail: string;
  provider: MailProvider;
  email: string;
  status?: 'linked' | 'needs_relink';
  secrets?: SecretsBox;
  now?: Date;
}

export async function seedMailAccount(db: Kysely<Database>, seed: SeedMailAccount): Promise<string> {
  const user = await db.selectFrom('users').select(['id', 'group_id']).where('email', '=', seed.userEmail).executeTakeFirstOrThrow();
  const secrets = seed.secrets ?? ephemeralSecretsBox();
  const at = (seed.now ?? new Date()).toISOString();
  const id = randomUUID();
  await db
    .insertInto('mail_accounts')
    .values({
      id,
      group_id: user.group_id,
      user_id: user.id,
      provider: seed.provider,
      email: seed.email.toLowerCase(),
      client_kind: 'web',
      scope: 'openid email',
      refresh_token: secrets.seal(`fixture-refresh-${id}`),
      access_token: null,
      access_expires_at: null,
      status: seed.status ?? 'linked',
      problem: null,
      created_at: at,
      updated_at: at,
      last_used_at: null,
    })
    .execute();
  return id;
}
