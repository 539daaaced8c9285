import type { Kysely } from 'kysely';
import { preferencesSchema, type Preferences } from '#shared/api/preferences.ts';
import type { Database } from '../../db/schema.ts';

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

export async function patchPreferences(db: Kysely<Database>, userId: string, patch: Preferences, now: Date): Promise<Preferences> {
  return db.transaction().execute(async (trx) => {
    const merged = mergePreferences(await getPreferences(trx, userId), patch);
    const data = JSON.stringify(merged);
    await trx
      .insertInto('preferences')
      .values({ user_id: userId, data, updated_at: now.toISOString() })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ data, updated_at: now.toISOString() }))
      .execute();
    return merged;
  });
}
