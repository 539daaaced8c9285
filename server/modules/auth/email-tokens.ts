import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserTokenKind } from '../../db/schema.ts';
import { addMs, hashToken, newOpaqueToken } from './tokens.ts';

export const RESET_PASSWORD_TTL_MS = 60 * 60 * 1000;
export const EMAIL_VALIDATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Issues a single-use emailed token; only its hash is kept. */
export async function issueUserToken(db: Kysely<Database>, userId: string, kind: UserTokenKind, ttlMs: number, now: Date): Promise<string> {
  const token = newOpaqueToken();
  await db
    .insertInto('user_tokens')
    .values({ id: randomUUID(), user_id: userId, kind, token_hash: hashToken(token), expires_at: addMs(now, ttlMs), used_at: null, created_at: now.toISOString() })
    .execute();
  return token;
}

/** The user a token of this kind belongs to, if it is unused and unexpired. */
export async function findValidUserToken(db: Kysely<Database>, token: string, kind: UserTokenKind, now: Date): Promise<{ id: string; userId: string } | null> {
  const row = await db
    .selectFrom('user_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id } : null;
}

/**
 * Spends a token if it is still unused and unexpired, and says whose it was. One conditional UPDATE
 * … RETURNING, so of several requests racing with the same link exactly one wins (a read, then a
 * write, let five concurrent resets all succeed).
 */
export async function claimUserToken(db: Kysely<Database>, token: string, kind: UserTokenKind, now: Date): Promise<{ userId: string } | null> {
  const row = await db
    .updateTable('user_tokens')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returning('user_id')
    .executeTakeFirst();
  return row ? { userId: row.user_id } : null;
}

/** Marks every open token of this kind for the user as used: one link works once, older ones die with it. */
export async function spendUserTokens(db: Kysely<Database>, userId: string, kind: UserTokenKind, now: Date): Promise<void> {
  await db.updateTable('user_tokens').set({ used_at: now.toISOString() }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}
