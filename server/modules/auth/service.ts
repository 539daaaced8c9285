import type { Kysely } from 'kysely';
import { ACCOUNT_REMOVED_MESSAGE } from '#shared/api/colleagues.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { findUserByEmail, findUserById, updateUser } from '../users/service.ts';
import { EMAIL_VALIDATION_TTL_MS, RESET_PASSWORD_TTL_MS, claimUserToken, findValidUserToken, issueUserToken, spendUserTokens } from './email-tokens.ts';
import { assertStrongPassword } from './password-strength.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';
import { revokeUserSessions } from './sessions.ts';

export const BAD_CREDENTIALS = () => new HttpError(401, 'BAD_CREDENTIALS', 'Email o contraseña incorrectos');
export const INVALID_LINK = () => new HttpError(400, 'INVALID_TOKEN', 'El enlace no es válido o ha caducado');
/**
 * A colleague the firm's owner removed (users.disabled_at): told only after the right password. As a
 * logoutReason too, so the renderer's failed refresh shows it when it signs the user out.
 */
export const ACCOUNT_REMOVED = () => new HttpError(403, 'ACCOUNT_REMOVED', ACCOUNT_REMOVED_MESSAGE, { logoutReason: ACCOUNT_REMOVED_MESSAGE });

/** The user id for these credentials; the same 401 whether the email or the password is wrong. */
export async function checkCredentials(db: Kysely<Database>, email: string, password: string): Promise<string> {
  const user = await findUserByEmail(db, email);
  const valid = user ? await verifyPassword(user.password_hash, password) : await burnPasswordCheck(password);
  if (!user || !valid) throw BAD_CREDENTIALS();
  if (user.disabled_at !== null) throw ACCOUNT_REMOVED();
  return user.id;
}

/** A reset link's token for this email, or null when no account has it (the caller says nothing). */
export async function startPasswordReset(db: Kysely<Database>, email: string, now: Date): Promise<{ email: string; token: string } | null> {
  const user = await findUserByEmail(db, email);
  if (!user) return null;
  const token = await issueUserToken(db, user.id, 'reset_password', RESET_PASSWORD_TTL_MS, now);
  return { email: user.email, token };
}

export async function checkResetToken(db: Kysely<Database>, token: string, now: Date): Promise<void> {
  if (!(await findValidUserToken(db, token, 'reset_password', now))) throw INVALID_LINK();
}

/** Sets the new password, spends the link and signs the user out everywhere. */
export async function completePasswordReset(db: Kysely<Database>, token: string, password: string, now: Date): Promise<void> {
  // A cheap look first, so a dead link costs no password hashing; the claim below decides.
  const found = await findValidUserToken(db, token, 'reset_password', now);
  const user = found ? await findUserById(db, found.userId) : undefined;
  if (!user) throw INVALID_LINK();
  await assertStrongPassword(password, 'password', [user.email, user.name]);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const claimed = await claimUserToken(trx, token, 'reset_password', now);
    if (!claimed) throw INVALID_LINK(); // another request spent it meanwhile; nothing is written
    await updateUser(trx, claimed.userId, { passwordHash }, now);
    await spendUserTokens(trx, claimed.userId, 'reset_password', now);
    await revokeUserSessions(trx, claimed.userId, now);
  });
}

export async function startEmailValidation(db: Kysely<Database>, userId: string, now: Date): Promise<string> {
  return issueUserToken(db, userId, 'email_validation', EMAIL_VALIDATION_TTL_MS, now);
}

/**
 * Marks an email as validated by its link alone, without a session: the token says whose it is, and
 * the link's email must be that user's, so a token only ever validates the address it was sent to.
 */
export async function completeEmailValidation(db: Kysely<Database>, email: string, token: string, now: Date): Promise<void> {
  const found = await findValidUserToken(db, token, 'email_validation', now);
  const user = found ? await findUserById(db, found.userId) : undefined;
  if (!found || !user || user.email.toLowerCase() !== email.toLowerCase()) throw INVALID_LINK();
  await db.transaction().execute(async (trx) => {
    if (!(await claimUserToken(trx, token, 'email_validation', now))) throw INVALID_LINK();
    await trx.updateTable('users').set({ email_validated: 1, updated_at: now.toISOString() }).where('id', '=', user.id).execute();
    await spendUserTokens(trx, user.id, 'email_validation', now);
  });
}

/** Checks the current password before a change; a wrong one is a field error on currentPassword. */
export async function checkCurrentPassword(db: Kysely<Database>, userId: string, currentPassword: string): Promise<boolean> {
  const user = await findUserById(db, userId);
  return user !== undefined && (await verifyPassword(user.password_hash, currentPassword));
}
