import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { addMs, hashToken, newOpaqueToken } from './tokens.ts';

export const ACCESS_TTL_MS = 15 * 60 * 1000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Two tabs of the same browser share the refresh cookie and may both refresh at once when the access
 * token expires. The later one arrives with the token the first just rotated; within this window,
 * and while the family is still alive, that is a race, not a theft.
 */
export const ROTATION_GRACE_MS = 10 * 1000;

/** The two tokens handed to the browser as cookies; only their hashes are stored. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
}

export interface ActiveSession {
  sessionId: string;
  userId: string;
  familyId: string;
}

export type RotationResult =
  | { kind: 'rotated'; userId: string; tokens: IssuedTokens }
  | { kind: 'reused' }
  | { kind: 'invalid' };

/** Starts a session (a new family on login) or continues a family on rotation. */
export async function createSession(db: Kysely<Database>, userId: string, now: Date, familyId: string = randomUUID()): Promise<IssuedTokens> {
  const tokens = { accessToken: newOpaqueToken(), refreshToken: newOpaqueToken() };
  await db
    .insertInto('sessions')
    .values({
      id: randomUUID(),
      user_id: userId,
      family_id: familyId,
      access_hash: hashToken(tokens.accessToken),
      refresh_hash: hashToken(tokens.refreshToken),
      access_expires_at: addMs(now, ACCESS_TTL_MS),
      refresh_expires_at: addMs(now, REFRESH_TTL_MS),
      revoked_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return tokens;
}

export async function findActiveSession(db: Kysely<Database>, accessToken: string, now: Date): Promise<ActiveSession | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'family_id'])
    .where('access_hash', '=', hashToken(accessToken))
    .where('revoked_at', 'is', null)
    .where('access_expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row ? { sessionId: row.id, userId: row.user_id, familyId: row.family_id } : null;
}

/**
 * Trades a refresh token for a new pair. The old pair is revoked; presenting a revoked refresh
 * token again means it was copied, so the whole family is revoked and everyone must log in again,
 * unless it is a concurrent refresh of the same browser (see ROTATION_GRACE_MS).
 */
export async function rotateSession(db: Kysely<Database>, refreshToken: string, now: Date): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sessions')
      .select(['id', 'user_id', 'family_id', 'revoked_at', 'refresh_expires_at'])
      .where('refresh_hash', '=', hashToken(refreshToken))
      .executeTakeFirst();
    if (!row) return { kind: 'invalid' } as const;
    if (row.revoked_at !== null) {
      if (await isConcurrentRefresh(trx, row.family_id, row.revoked_at, now)) {
        return { kind: 'rotated', userId: row.user_id, tokens: await createSession(trx, row.user_id, now, row.family_id) } as const;
      }
      await revokeFamily(trx, row.family_id, now);
      return { kind: 'reused' } as const;
    }
    if (row.refresh_expires_at <= now.toISOString()) return { kind: 'invalid' } as const;
    // Only one concurrent rotation may win the row; the loser goes through the reuse check above.
    const claimed = await trx
      .updateTable('sessions')
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n && !(await isConcurrentRefresh(trx, row.family_id, now.toISOString(), now))) {
      await revokeFamily(trx, row.family_id, now);
      return { kind: 'reused' } as const;
    }
    const tokens = await createSession(trx, row.user_id, now, row.family_id);
    return { kind: 'rotated', userId: row.user_id, tokens } as const;
  });
}

/** Rotated moments ago, and the family still has a live session (logout and theft revoke them all). */
async function isConcurrentRefresh(db: Kysely<Database>, familyId: string, revokedAt: string, now: Date): Promise<boolean> {
  if (now.getTime() - new Date(revokedAt).getTime() > ROTATION_GRACE_MS) return false;
  const live = await db
    .selectFrom('sessions')
    .select('id')
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .where('refresh_expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return live !== undefined;
}

export async function revokeFamily(db: Kysely<Database>, familyId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now.toISOString() }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user, optionally keeping the one making the request. */
export async function revokeUserSessions(db: Kysely<Database>, userId: string, now: Date, keepFamilyId?: string): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: now.toISOString() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepFamilyId) query = query.where('family_id', '!=', keepFamilyId);
  await query.execute();
}

/** The family a refresh token belongs to, to revoke it on logout even after the access cookie expired. */
export async function familyOfRefreshToken(db: Kysely<Database>, refreshToken: string): Promise<string | null> {
  const row = await db.selectFrom('sessions').select('family_id').where('refresh_hash', '=', hashToken(refreshToken)).executeTakeFirst();
  return row?.family_id ?? null;
}
