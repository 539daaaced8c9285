import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import { toFieldIssues } from '#shared/api/errors.ts';
import { SCRIPT_SETTING_INVALID_MESSAGE, scriptSettingRequestSchema, type ScriptSetting } from '#shared/api/machines.ts';
import type { Database } from '../../db/schema.ts';
import type { ScriptSettingsTable } from '../../db/schema-machines.ts';
import { HttpError } from '../../http/errors.ts';
import { spanishOrder, type Member } from './access.ts';

export const SCRIPT_SETTING_NOT_FOUND_MESSAGE = 'No se ha encontrado esta configuración';
/** A saved configuration is a handful of values and lists; this bounds one row, not any real use. */
export const MAX_SCRIPT_SETTING_BYTES = 256 * 1024;
/** How many saved configurations one flow may have in a group. */
export const MAX_SCRIPT_SETTINGS_PER_FLOW = 200;

export type ScriptSettingInput = z.output<typeof scriptSettingRequestSchema>;

function invalid(issues: { path: string; message: string }[]): HttpError {
  return new HttpError(400, 'VALIDATION', SCRIPT_SETTING_INVALID_MESSAGE, { issues });
}

/** The body of a POST, with the spec's own message ('Comprueba la información') and the fields at fault. */
export function parseScriptSetting(body: unknown): ScriptSettingInput {
  const result = z.safeParse(scriptSettingRequestSchema, body ?? {});
  if (!result.success) throw invalid(toFieldIssues(result.error));
  if (new TextEncoder().encode(JSON.stringify(result.data.data)).length > MAX_SCRIPT_SETTING_BYTES) {
    throw invalid([{ path: 'data', message: 'La configuración ocupa demasiado' }]);
  }
  return result.data;
}

type SettingRow = Pick<ScriptSettingsTable, 'id' | 'name' | 'settings' | 'created_at'>;

function toScriptSetting(row: SettingRow): ScriptSetting {
  let settings: unknown;
  try {
    settings = JSON.parse(row.settings);
  } catch {
    settings = {};
  }
  const isObject = typeof settings === 'object' && settings !== null && !Array.isArray(settings);
  return { _id: row.id, name: row.name, settings: isObject ? (settings as Record<string, unknown>) : {}, createdAt: row.created_at };
}

/**
 * A flow's saved configurations belong to the group: everyone in the firm sees and uses the same
 * ones (a client's CCC list is the firm's, not one advisor's), by name.
 */
export async function listScriptSettings(db: Kysely<Database>, groupId: string, flowId: string): Promise<ScriptSetting[]> {
  const rows = await db
    .selectFrom('script_settings')
    .select(['id', 'name', 'settings', 'created_at'])
    .where('group_id', '=', groupId)
    .where('flow_id', '=', flowId)
    .execute();
  return rows.map(toScriptSetting).sort((a, b) => spanishOrder.compare(a.name, b.name) || a.createdAt.localeCompare(b.createdAt));
}

/** Saves one for the group, recording who made it. */
export async function createScriptSetting(db: Kysely<Database>, member: Member, flowId: string, input: ScriptSettingInput, now: Date): Promise<ScriptSetting> {
  const { count } = await db
    .selectFrom('script_settings')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('group_id', '=', member.groupId)
    .where('flow_id', '=', flowId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_SCRIPT_SETTINGS_PER_FLOW) {
    throw new HttpError(409, 'SCRIPT_SETTINGS_FULL', `Este robot ya tiene ${MAX_SCRIPT_SETTINGS_PER_FLOW} configuraciones guardadas. Borra alguna antes de guardar otra.`);
  }
  const row = {
    id: randomUUID(),
    group_id: member.groupId,
    user_id: member.userId,
    flow_id: flowId,
    name: input.name,
    settings: JSON.stringify(input.data),
    created_at: now.toISOString(),
  };
  await db.insertInto('script_settings').values(row).execute();
  return toScriptSetting(row);
}

/** Anyone in the group may delete one of the group's; another group's is a 404 like a missing one. */
export async function deleteScriptSetting(db: Kysely<Database>, groupId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('script_settings').where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new HttpError(404, 'SCRIPT_SETTING_NOT_FOUND', SCRIPT_SETTING_NOT_FOUND_MESSAGE);
}
