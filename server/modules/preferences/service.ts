import type { Kysely } from 'kysely';
import { PREFERENCES_MAX_BYTES, PREFERENCES_MAX_KEYS, preferencesSchema, type Preferences } from '#shared/api/preferences.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

export const PREFERENCES_TOO_LARGE = `Las preferencias no pueden ocupar más de ${PREFERENCES_MAX_BYTES / 1024} KB. Borra alguna antes de guardar otra.`;
export const PREFERENCES_TOO_MANY = `No se pueden guardar más de ${PREFERENCES_MAX_KEYS} preferencias. Borra alguna antes de guardar otra.`;

export async function getPreferences(db: Kysely<Database>, userId: string): Promise<Preferences> {
  const row = await db.selectFrom('preferences').select('data').where('user_id', '=', userId).executeTakeFirst();
  if (!row) return {};
  const parsed = preferencesSchema.safeParse(JSON.parse(row.data));
  return parsed.success ? parsed.data : {};
}

/** Merges `patch` into what is stored; a null value removes that key. */
export function mergePreferences(stored: Preferences, patch: Preferences): Preferences {
  const merged: Preferences = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/**
 * Merges and stores a PATCH, unless the result would pass the caps (the merged JSON's bytes and its
 * key count): then a 413/400 and the stored row stays as it was. A PATCH that only removes keys always
 * goes through, so a row stored before the caps can still shrink.
 */
export async function patchPreferences(db: Kysely<Database>, userId: string, patch: Preferences, now: Date): Promise<Preferences> {
  return db.transaction().execute(async (trx) => {
    const stored = await getPreferences(trx, userId);
    const merged = mergePreferences(stored, patch);
    const data = JSON.stringify(merged);
    const onlyRemoves = Object.values(patch).every((value) => value === null);
    if (!onlyRemoves && Object.keys(merged).length > PREFERENCES_MAX_KEYS) throw new HttpError(400, 'PREFERENCES_TOO_MANY', PREFERENCES_TOO_MANY);
    if (!onlyRemoves && Buffer.byteLength(data) > PREFERENCES_MAX_BYTES) throw new HttpError(413, 'PREFERENCES_TOO_LARGE', PREFERENCES_TOO_LARGE);
    await trx
      .insertInto('preferences')
      .values({ user_id: userId, data, updated_at: now.toISOString() })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ data, updated_at: now.toISOString() }))
      .execute();
    return merged;
  });
}
