import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { preparedQuery, type SlotOf } from '../../db/prepared.ts';
import { readRowsNow } from '../../db/direct-reads.ts';
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
  /** The user's group, read with the session: every group-scoped endpoint needs it, and one query beats two. */
  groupId: string;
}

export type RotationResult =
  | { kind: 'rotated'; userId: string; tokens: IssuedTokens }
  | { kind: 'reused' }
  | { kind: 'invalid' };

/** Starts a session (a new family on login) or continues a family on rotation. */
export async function createSession(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  familyId: string = randomUUID(),
  issued: { id: string; tokens: IssuedTokens } = { id: randomUUID(), tokens: { accessToken: newOpaqueToken(), refreshToken: newOpaqueToken() } },
): Promise<IssuedTokens> {
  const { tokens } = issued;
  await db
    .insertInto('sessions')
    .values({
      id: issued.id,
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

/**
 * The live session of an access token's hash at an instant. Every signed-in request asks it, so it is
 * compiled once per database and only given each request's values; the database still decides, on
 * every request, whether the session is expired, revoked or its user removed (nothing is cached).
 */
const preparedSessionLookup = preparedQuery(
  () => '',
  (db: Kysely<Database>, _shape: null, slot: SlotOf<{ accessHash: string; now: string }>) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'sessions.user_id', 'sessions.family_id', 'users.group_id'])
      .where('sessions.access_hash', '=', slot('accessHash'))
      .where('sessions.revoked_at', 'is', null)
      // A removed colleague's sessions are revoked; this also covers one rotated in the same instant.
      .where('users.disabled_at', 'is', null)
      .where('sessions.access_expires_at', '>', slot('now')),
);

export async function findActiveSession(db: Kysely<Database>, accessToken: string, now: Date): Promise<ActiveSession | null> {
  const query = preparedSessionLookup(db, null, { accessHash: hashToken(accessToken), now: now.toISOString() });
  const rows = readRowsNow(db, query) ?? (await db.executeQuery(query)).rows;
  const row = rows[0];
  return row ? { sessionId: row.id, userId: row.user_id, familyId: row.family_id, groupId: row.group_id } : null;
}

/**
 * Trades a refresh token for a new pair. The old pair is revoked; presenting a revoked refresh
 * token again means it was copied, so the whole family is revoked and everyone must log in again,
 * unless it is a concurrent refresh of the same browser (see ROTATION_GRACE_MS): that one gets the
 * successor already issued, never a new session (each replay used to add a live session).
 */
export async function rotateSession(db: Kysely<Database>, refreshToken: string, now: Date): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    const row = await findByRefreshToken(trx, refreshToken);
    if (!row) return { kind: 'invalid' } as const;
    if (row.revoked_at !== null) return replayOrTheft(trx, row, refreshToken, now);
    if (row.refresh_expires_at <= now.toISOString()) return { kind: 'invalid' } as const;

    const successorId = randomUUID();
    const tokens = { accessToken: newOpaqueToken(), refreshToken: newOpaqueToken() };
    // Only one concurrent rotation may win the row; the loser is handed the winner's successor.
    const claimed = await trx
      .updateTable('sessions')
      .set({ revoked_at: now.toISOString(), successor_sealed: sealSuccessor({ sessionId: successorId, ...tokens }, refreshToken) })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n) {
      const winner = await findByRefreshToken(trx, refreshToken);
      return winner ? replayOrTheft(trx, winner, refreshToken, now) : ({ kind: 'invalid' } as const);
    }
    await createSession(trx, row.user_id, now, row.family_id, { id: successorId, tokens });
    return { kind: 'rotated', userId: row.user_id, tokens } as const;
  });
}

interface RefreshRow {
  id: string;
  user_id: string;
  family_id: string;
  revoked_at: string | null;
  refresh_expires_at: string;
  successor_sealed?: string | null;
}

function findByRefreshToken(db: Kysely<Database>, refreshToken: string): Promise<RefreshRow | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'family_id', 'revoked_at', 'refresh_expires_at', 'successor_sealed'])
    .where('refresh_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
}

/**
 * A revoked refresh token again: within the grace window, the live end of its chain of successors
 * (a tab may have rotated twice meanwhile); otherwise, or when the family is dead (logout, theft,
 * password change), theft: the family is revoked.
 */
async function replayOrTheft(db: Kysely<Database>, row: RefreshRow, refreshToken: string, now: Date): Promise<RotationResult> {
  if (row.revoked_at !== null && now.getTime() - new Date(row.revoked_at).getTime() <= ROTATION_GRACE_MS) {
    let sealed = row.successor_sealed ?? null;
    let key = refreshToken;
    for (let step = 0; sealed !== null && step < 10; step++) {
      const successor = openSuccessor(sealed, key);
      if (!successor) break;
      const next = await db
        .selectFrom('sessions')
        .select(['user_id', 'revoked_at', 'refresh_expires_at', 'successor_sealed'])
        .where('id', '=', successor.sessionId)
        .executeTakeFirst();
      if (!next) break;
      if (next.revoked_at === null) {
        if (next.refresh_expires_at <= now.toISOString()) break;
        return { kind: 'rotated', userId: next.user_id, tokens: { accessToken: successor.accessToken, refreshToken: successor.refreshToken } };
      }
      sealed = next.successor_sealed ?? null;
      key = successor.refreshToken;
    }
  }
  await revokeFamily(db, row.family_id, now);
  return { kind: 'reused' };
}

interface Successor extends IssuedTokens {
  sessionId: string;
}

/**
 * The successor's tokens, encrypted (AES-256-GCM) under a key derived from the rotated refresh
 * token, which the database keeps only as a SHA-256: a leaked table reveals no usable token, while
 * whoever presents the old token within the grace gets back exactly the successor.
 */
function sealKey(refreshToken: string): Buffer {
  return createHmac('sha256', refreshToken).update('autoasesor/session-successor/v1').digest();
}

function sealSuccessor(successor: Successor, refreshToken: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(refreshToken), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(successor), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function openSuccessor(sealed: string, refreshToken: string): Successor | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(refreshToken), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const value: unknown = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
    if (value === null || typeof value !== 'object') return null;
    const { sessionId, accessToken, refreshToken: nextRefresh } = value as Record<string, unknown>;
    return typeof sessionId === 'string' && typeof accessToken === 'string' && typeof nextRefresh === 'string'
      ? { sessionId, accessToken, refreshToken: nextRefresh }
      : null;
  } catch {
    return null; // tampered or foreign: treated like no successor
  }
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

/** Whether a refresh token belongs to a colleague the firm's owner removed (users.disabled_at). */
export async function refreshTokenOfRemovedUser(db: Kysely<Database>, refreshToken: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('users.disabled_at')
    .where('sessions.refresh_hash', '=', hashToken(refreshToken))
    .executeTakeFirst();
  return row !== undefined && row.disabled_at !== null;
}

/** The family a refresh token belongs to, to revoke it on logout even after the access cookie expired. */
export async function familyOfRefreshToken(db: Kysely<Database>, refreshToken: string): Promise<string | null> {
  const row = await db.selectFrom('sessions').select('family_id').where('refresh_hash', '=', hashToken(refreshToken)).executeTakeFirst();
  return row?.family_id ?? null;
}
