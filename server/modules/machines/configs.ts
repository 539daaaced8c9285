import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import { MAIL_ACCOUNT_REQUIRED_MESSAGE } from '#shared/api/mail.ts';
import { emailSettingsSchema, type EmailSettings, type MachineConfig, type machineConfigRequestSchema } from '#shared/api/machines.ts';
import type { Database } from '../../db/schema.ts';
import type { MachineConfigsTable } from '../../db/schema-machines.ts';
import { HttpError } from '../../http/errors.ts';
import { findUsableAccount } from '../mail/account-queries.ts';
import { machineNotFound, spanishOrder, visibleMachines, type Member } from './access.ts';
import { parseJson } from '../../db/json-column.ts';

export const CONFIG_NOT_FOUND_MESSAGE = 'No se ha encontrado esta configuración';
/** Spec §3: a saved config whose settings are not an object is flagged, and can still be deleted. */
export const CONFIG_DAMAGED_MESSAGE = 'Esta configuración está dañada y no se puede usar. Bórrala y créala de nuevo.';

type ConfigRow = Pick<MachineConfigsTable, 'id' | 'machine_id' | 'name' | 'ccc_list' | 'email_settings' | 'created_at'>;

const storedCccList = z.array(z.string());


/** A stored row as the API shows it; settings that do not read back as they were written come flagged. */
export function toMachineConfig(row: ConfigRow): MachineConfig {
  const cccList = z.safeParse(storedCccList, parseJson<unknown>(row.ccc_list, undefined));
  const emailSettings = row.email_settings === null ? null : z.safeParse(emailSettingsSchema, parseJson<unknown>(row.email_settings, undefined));
  const damaged = !cccList.success || (emailSettings !== null && !emailSettings.success);
  return {
    _id: row.id,
    name: row.name,
    cccList: cccList.success ? cccList.data : [],
    emailSettings: emailSettings?.success ? emailSettings.data : null,
    error: damaged ? CONFIG_DAMAGED_MESSAGE : null,
    createdAt: row.created_at,
  };
}

/** The configs of these machines, each machine's by name. */
export async function configsOf(db: Kysely<Database>, machineIds: readonly string[]): Promise<Map<string, MachineConfig[]>> {
  const byMachine = new Map<string, MachineConfig[]>();
  if (machineIds.length === 0) return byMachine;
  const rows = await db
    .selectFrom('machine_configs')
    .select(['id', 'machine_id', 'name', 'ccc_list', 'email_settings', 'created_at'])
    .where('machine_id', 'in', machineIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    if (row.machine_id === null) continue;
    const list = byMachine.get(row.machine_id) ?? [];
    list.push(toMachineConfig(row));
    byMachine.set(row.machine_id, list);
  }
  for (const list of byMachine.values()) list.sort((a, b) => spanishOrder.compare(a.name, b.name));
  return byMachine;
}

/** GET /api/configs: the firm's own configs (on no device), by name. */
export async function firmConfigs(db: Kysely<Database>, member: Member): Promise<MachineConfig[]> {
  const rows = await db
    .selectFrom('machine_configs')
    .select(['id', 'machine_id', 'name', 'ccc_list', 'email_settings', 'created_at'])
    .where('group_id', '=', member.groupId)
    .where('machine_id', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toMachineConfig).sort((a, b) => spanishOrder.compare(a.name, b.name));
}

type ConfigRequest = z.output<typeof machineConfigRequestSchema>;

/**
 * The stored columns of a request. Addresses are kept lower-case, as linked accounts are: the outbox
 * finds the account by it. Spec §5 'The email step-3 save needs a synced account': the firm must have
 * linked this address with this provider.
 */
async function storedColumns(db: Kysely<Database>, member: Member, request: ConfigRequest): Promise<Pick<ConfigRow, 'name' | 'ccc_list' | 'email_settings'>> {
  const emailSettings: EmailSettings | null = request.emailSettings ? { ...request.emailSettings, email: request.emailSettings.email.trim().toLowerCase() } : null;
  if (emailSettings !== null && !(await findUsableAccount(db, member.groupId, emailSettings.provider, emailSettings.email))) {
    throw new HttpError(400, 'MAIL_ACCOUNT_REQUIRED', MAIL_ACCOUNT_REQUIRED_MESSAGE, { issues: [{ path: 'emailSettings.email', message: MAIL_ACCOUNT_REQUIRED_MESSAGE }] });
  }
  return { name: request.name, ccc_list: JSON.stringify(request.cccList), email_settings: emailSettings === null ? null : JSON.stringify(emailSettings) };
}

/**
 * POST /api/machines/:id/configs, or POST /api/configs with `machineId` null (the firm's own). Whoever
 * can see the machine may add one: its owner, and everyone in the group once it is shared, since a
 * shared PC runs the firm's robots with these settings; any member adds the firm's.
 */
export async function createConfig(db: Kysely<Database>, member: Member, machineId: string | null, request: ConfigRequest, now: Date): Promise<MachineConfig> {
  if (machineId !== null) {
    const machine = await visibleMachines(db, member).where('m.id', '=', machineId).executeTakeFirst();
    if (!machine) throw machineNotFound();
  }
  const row = { id: randomUUID(), machine_id: machineId, group_id: member.groupId, ...(await storedColumns(db, member, request)), created_at: now.toISOString() };
  await db.insertInto('machine_configs').values(row).execute();
  return toMachineConfig(row);
}

/** The id of a config the member may change: the firm's own, or one on a machine they see; else 404. */
async function changeableConfig(db: Kysely<Database>, member: Member, configId: string): Promise<{ id: string; created_at: string; machine_id: string | null }> {
  const config = await db
    .selectFrom('machine_configs as c')
    .select(['c.id', 'c.created_at', 'c.machine_id'])
    .where('c.id', '=', configId)
    .where('c.group_id', '=', member.groupId)
    .where((eb) => eb.or([eb('c.machine_id', 'is', null), eb('c.machine_id', 'in', visibleMachines(db, member).clearSelect().select('m.id'))]))
    .executeTakeFirst();
  if (!config) throw new HttpError(404, 'CONFIG_NOT_FOUND', CONFIG_NOT_FOUND_MESSAGE);
  return config;
}

/** PUT /api/machines/configs/:configId: its name, CCC list and mail settings replaced, where it is. */
export async function updateConfig(db: Kysely<Database>, member: Member, configId: string, request: ConfigRequest): Promise<MachineConfig> {
  const config = await changeableConfig(db, member, configId);
  const columns = await storedColumns(db, member, request);
  await db.updateTable('machine_configs').set(columns).where('id', '=', config.id).execute();
  return toMachineConfig({ id: config.id, machine_id: config.machine_id, created_at: config.created_at, ...columns });
}

/** DELETE /api/machines/configs/:configId, by whoever may add one to its machine (any member, for the firm's). */
export async function deleteConfig(db: Kysely<Database>, member: Member, configId: string): Promise<void> {
  const config = await changeableConfig(db, member, configId);
  await db.deleteFrom('machine_configs').where('id', '=', config.id).execute();
}
