import { daysBetween } from './dates.ts';
import { inferDocumentIdType } from '../validation/identifiers.ts';
import type { FieEntryFacts, FieEntryType, FieFields } from './types.ts';

/** Leave entries of this many days or fewer are marked short (spec §9). */
export const SHORT_DURATION_DAYS = 2;

/** The entry type by the spec's rules, first match wins. */
export function entryType(fields: FieFields): FieEntryType {
  if (fields[1610]) return 'dip';
  if (fields[1520] || fields[1530]) return 'cit';
  if (fields[2110] || fields[1910]?.value === 'NC') return 'nac';
  if (fields[1910]) return 'dop';
  if (fields[1810]) return 'jub';
  return fields[1150] ? 'alta' : 'baja';
}

/**
 * Days of leave, counting both the leave date (1020) and the alta date (1150): a leave that starts
 * and ends on the same day lasts 1 day, 10/01 to 12/01 lasts 3. The alta takes effect the day after
 * it is issued, so the alta day is still a day of leave. Null while the leave is open, when a date is
 * unreadable, or when the alta is earlier than the leave.
 */
export function leaveDuration(fields: FieFields): number | null {
  const start = fields[1020]?.normalizedValue;
  const end = fields[1150]?.normalizedValue;
  if (typeof start !== 'string' || typeof end !== 'string') return null;
  const days = daysBetween(start, end) + 1;
  return days >= 1 ? days : null;
}

/** 'MARIA GARCIA LOPEZ': name, then surnames, skipping the missing ones. */
export function fullName(fields: FieFields): string {
  return [fields[840], fields[820], fields[830]]
    .map((field) => (typeof field?.normalizedValue === 'string' ? field.normalizedValue : ''))
    .filter((part) => part !== '')
    .join(' ');
}

/** Everything the spec derives from an entry's fields, except what needs logs or server data. */
export function deriveFacts(fields: FieFields): FieEntryFacts {
  const type = entryType(fields);
  const duration = leaveDuration(fields);
  const nifValue = fields[670]?.normalizedValue;
  const nif = typeof nifValue === 'string' && nifValue !== '' ? nifValue : null;
  return {
    fullname: fullName(fields),
    type,
    isAlta: type === 'alta',
    isBaja: type === 'baja',
    duration,
    shortDuration: duration !== null && duration <= SHORT_DURATION_DAYS,
    isCanceled: fields[1170]?.value === 'S' || fields[1171]?.value === 'S',
    nif,
    idType: nif === null ? null : inferDocumentIdType(nif),
  };
}
