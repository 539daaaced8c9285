import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod/mini';
import { emailSettingsSchema, type EmailSettings } from '#shared/api/machines.ts';
import type { MailAccount, MailProvider } from '#shared/api/mail.ts';
import type { Database } from '../../db/schema.ts';
import type { MailAccountsTable } from '../../db/schema-mail.ts';
import { parseJson } from '../../db/json-column.ts';

export type MailAccountRow = Selectable<MailAccountsTable>;
type ListedRow = Pick<MailAccountRow, 'id' | 'user_id' | 'provider' | 'email' | 'status' | 'problem' | 'created_at' | 'last_used_at'> & {
  owner_name: string;
  owner_email: string;
};

/** The columns an account is shown with; never a token. */
function listed(db: Kysely<Database>) {
  return db
    .selectFrom('mail_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.user_id', 'a.provider', 'a.email', 'a.status', 'a.problem', 'a.created_at', 'a.last_used_at', 'u.name as owner_name', 'u.email as owner_email']);
}

/** As the API shows it: who linked it (the last to link it) and since when, no token. */
export function toMailAccount(row: ListedRow, callerId: string): MailAccount {
  return {
    _id: row.id,
    provider: row.provider,
    email: row.email,
    status: row.status,
    problem: row.problem,
    mine: row.user_id === callerId,
    linkedBy: { name: row.owner_name, email: row.owner_email },
    // Not updated_at: every refresh moves that.
    linkedAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** The group's accounts: the caller's first, then by address. */
export async function listAccounts(db: Kysely<Database>, groupId: string, callerId: string): Promise<MailAccount[]> {
  const rows = await listed(db).where('a.group_id', '=', groupId).execute();
  return rows
    .map((row) => toMailAccount(row, callerId))
    .sort((a, b) => Number(b.mine) - Number(a.mine) || a.email.localeCompare(b.email) || a.provider.localeCompare(b.provider));
}

/** The addresses of the firm's linked mailboxes, by the member who linked them (the colleagues list shows them). */
export async function mailboxesByLinker(db: Kysely<Database>, groupId: string): Promise<Map<string, string[]>> {
  const rows = await db.selectFrom('mail_accounts').select(['user_id', 'email']).where('group_id', '=', groupId).orderBy('email').orderBy('provider').execute();
  const byUser = new Map<string, string[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.email]);
  return byUser;
}

export async function listedAccount(db: Kysely<Database>, groupId: string, provider: MailProvider, email: string, callerId: string): Promise<MailAccount | null> {
  const row = await listed(db).where('a.group_id', '=', groupId).where('a.provider', '=', provider).where('a.email', '=', email).executeTakeFirst();
  return row ? toMailAccount(row, callerId) : null;
}

export async function accountRow(db: Kysely<Database>, accountId: string): Promise<MailAccountRow | undefined> {
  return db.selectFrom('mail_accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

/** A linked account usable for sending from this address (machine configs, the 'Enviar resultado por email' input). */
export interface UsableAccount {
  id: string;
  userId: string;
  provider: MailProvider;
  email: string;
}

export async function findUsableAccount(db: Kysely<Database>, groupId: string, provider: MailProvider, email: string): Promise<UsableAccount | null> {
  const row = await db
    .selectFrom('mail_accounts')
    .select(['id', 'user_id', 'provider', 'email'])
    .where('group_id', '=', groupId)
    .where('provider', '=', provider)
    .where('email', '=', email.trim().toLowerCase())
    .where('status', '=', 'linked')
    .executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id, provider: row.provider, email: row.email } : null;
}

/**
 * A machine config's mail settings (read with their schema) and the firm's account they name, whatever
 * its status; null when the config is not the firm's or has no readable mail settings.
 */
export async function emailConfigAccount(
  db: Kysely<Database>,
  groupId: string,
  configId: string,
): Promise<{ settings: EmailSettings; account: { id: string; status: MailAccountsTable['status'] } | null } | null> {
  const config = await db.selectFrom('machine_configs').select('email_settings').where('id', '=', configId).where('group_id', '=', groupId).executeTakeFirst();
  const parsed = z.safeParse(emailSettingsSchema, parseJson<unknown>(config?.email_settings ?? null, null));
  if (!parsed.success) return null;
  const settings = parsed.data;
  const account = await db
    .selectFrom('mail_accounts')
    .select(['id', 'status'])
    .where('group_id', '=', groupId)
    .where('provider', '=', settings.provider)
    .where('email', '=', settings.email.trim().toLowerCase())
    .executeTakeFirst();
  return { settings, account: account ?? null };
}

/**
 * Whether a launch's 'Enviar resultado por email' names an email config of the firm whose account is
 * linked: a run is refused at once rather than found unsendable when it ends.
 */
export async function isUsableEmailConfig(db: Kysely<Database>, groupId: string, configId: string): Promise<boolean> {
  return (await emailConfigAccount(db, groupId, configId))?.account?.status === 'linked';
}
