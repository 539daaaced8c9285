import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Language, UserData } from '#shared/domain/user.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createGroup, findGroup } from '../groups/service.ts';
import { startTrial } from '../subscriptions/service.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

export const EMAIL_TAKEN = () => new HttpError(409, 'EMAIL_TAKEN', 'Este email ya está en uso');

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  language: Language;
  /** The firm's name; the user's name when absent. */
  groupName?: string;
}

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: Kysely<Database>, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function emailExists(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await findUserByEmail(db, email)) !== undefined;
}

/**
 * Registration: a group named after the user (or firm), the user, and a trialing subscription on
 * the trial plan, all or nothing. A taken email is a 409 even when two sign-ups race.
 * `passwordHash`: the password's hash when it is known already (the demo account's, db/seed.ts).
 */
export async function registerAccount(db: Kysely<Database>, account: NewAccount, now: Date, passwordHash?: string): Promise<string> {
  const email = account.email.toLowerCase();
  if (await emailExists(db, email)) throw EMAIL_TAKEN();
  passwordHash ??= await hashPassword(account.password);
  const userId = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      const group = await createGroup(trx, account.groupName ?? account.name, now);
      await trx
        .insertInto('users')
        .values({
          id: userId,
          group_id: group.id,
          email,
          name: account.name,
          password_hash: passwordHash,
          language: account.language,
          email_validated: 0,
          config: '{}',
          used_slans: 0,
          role: 'owner',
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .execute();
      await startTrial(trx, group.id, now);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw EMAIL_TAKEN();
    throw error;
  }
  return userId;
}

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** What the renderer knows about the signed-in user (shared/domain/user.ts). */
export async function loadUserData(db: Kysely<Database>, userId: string): Promise<UserData | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const group = await findGroup(db, user.group_id);
  if (!group) return null;
  return {
    uid: user.id,
    email: user.email,
    name: user.name,
    language: user.language === 'en' || user.language === 'ca' ? user.language : 'es',
    emailValidated: user.email_validated === 1,
    group,
    config: parseObject(user.config),
    usedSlans: Number(user.used_slans),
    role: user.role === 'owner' ? 'owner' : 'member',
    supportAgent: Number(user.support_agent) === 1,
  };
}

export interface ProfileChanges {
  name?: string;
  language?: Language;
  passwordHash?: string;
}

export async function updateUser(db: Kysely<Database>, userId: string, changes: ProfileChanges, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.language !== undefined && { language: changes.language }),
      ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute();
}

export interface FirmMember {
  userId: string;
  groupId: string;
  role: 'owner' | 'member';
  name: string;
  email: string;
  firmName: string;
}

/** The signed-in user as a member of their firm: who may pay or invite is decided from this (role). */
export async function firmMember(db: Kysely<Database>, session: { userId: string; groupId: string }): Promise<FirmMember | undefined> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.group_id', 'u.role', 'u.name', 'u.email', 'g.name as firm_name'])
    .where('u.id', '=', session.userId)
    .where('u.group_id', '=', session.groupId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { userId: row.id, groupId: row.group_id, role: row.role === 'owner' ? 'owner' : 'member', name: row.name, email: row.email, firmName: row.firm_name };
}
