import type { Kysely } from 'kysely';
import type { FieldsValues } from '#shared/api/altas.ts';
import { altaIdentity, DUPLICATE_ALTA_MESSAGE, FIELD } from '#shared/altas/index.ts';
import { toIsoDate } from '#shared/forms/index.ts';
import type { Database } from '../../db/schema.ts';
import { parseJson } from '../../db/json-column.ts';
import { HttpError } from '../../http/errors.ts';

/**
 * The same alta sent twice (issue 44): the firm's altas, pending or registered in RED, that are not
 * removed and have the same document, fecha de alta and CCC (shared/altas/alta-rules.ts altaIdentity).
 * Only the caller's firm is looked at: another firm's altas are never compared, so nothing of them is told.
 */
export async function hasDuplicateAlta(db: Kysely<Database>, groupId: string, values: FieldsValues, exceptId: string | null = null): Promise<boolean> {
  const identity = altaIdentity(values);
  const alta = toIsoDate(values[FIELD.fechaAlta]);
  if (identity === null || alta === null) return false;
  // Dates are stored as ISO days (normalizeSubmissionValues): only altas holding this day are read and compared.
  let query = db
    .selectFrom('altas_submissions')
    .select(['id', 'fields_values'])
    .where('group_id', '=', groupId)
    .where('removed', '=', 0)
    .where('fields_values', 'like', `%"${alta}"%`);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  const rows = await query.execute();
  return rows.some((row) => altaIdentity(parseJson<FieldsValues>(row.fields_values, {})) === identity);
}

/** A 409 that names the rule, placed on the document number ('fieldsValues.NIF'). */
export function duplicateAltaError(): HttpError {
  return new HttpError(409, 'DUPLICATE_ALTA', DUPLICATE_ALTA_MESSAGE, {
    issues: [{ path: `fieldsValues.${FIELD.nif}`, message: DUPLICATE_ALTA_MESSAGE }],
    details: { fields: { [FIELD.nif]: DUPLICATE_ALTA_MESSAGE } },
  });
}
