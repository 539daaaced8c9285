import { createHash } from 'node:crypto';
import { a3IncidentCode } from '#shared/a3/incident.ts';
import { formatCcc } from '#shared/a3/sync-record.ts';
import type { A3SyncState, FieEntryFieldsBody, FieEntryView } from '#shared/api/fie.ts';
import { deriveFacts } from '#shared/fie/derive.ts';
import { readField } from '#shared/fie/fields.ts';
import { fieTypeLabel, isFieTypeDisabled } from '#shared/fie/labels.ts';
import { FIELD_BY_CODE } from '#shared/fie/layout.ts';
import { entrySearchText } from '#shared/fie/list-filter.ts';
import { forEachField, readsBackFromText, type FieEntryRead, type FieFieldLookup } from '#shared/fie/slot-entry.ts';
import { lookup } from '#shared/fie/tables.ts';
import type { FieEntry, FieField, FieFields, FieSegment } from '#shared/fie/types.ts';
import type { FieEntriesTable } from '../../db/schema-fie.ts';
import { a3IncidentLabel } from './incidents.ts';
import { parteKeyOf, type ParteConfirmation } from './partes.ts';

/** What an entry's row holds besides its ids, state and dates of storage. */
export type EntryFacts = Pick<
  FieEntriesTable,
  | 'entry_key' | 'type' | 'nif' | 'fullname' | 'company_name' | 'ccc' | 'registration_date' | 'leave_start' | 'leave_end' | 'entry_date'
  | 'duration' | 'short_duration' | 'canceled' | 'contingency' | 'incidence_code' | 'search_text' | 'fields_json'
  | 'parte_key' | 'confirmation_date' | 'confirmation_number' | 'sort_name'
>;

function textOf(fields: FieFieldLookup, code: number): string | null {
  const value = fields[code]?.normalizedValue;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The entry's identity in its firm: a hash of every field's code and value but 100, the date of the file
 * that carried it. The INSS resends an entry unchanged in later files, and those are the same entry.
 * The text hashed is JSON.stringify of the [code, value] pairs in code order, written out pair by pair
 * (the keys of entries stored before must not change).
 */
export function entryKey(fields: FieFields): string {
  return keyOf(entryOf(fields));
}

function keyOf(entry: FieEntryRead): string {
  let canonical = '';
  forEachField(entry, (code, field) => {
    if (code === 100) return;
    canonical += `${canonical === '' ? '' : ','}[${code},${JSON.stringify(field.value)}]`;
  });
  return createHash('sha256').update(`[${canonical}]`, 'utf8').digest('hex');
}

/** The columns an entry's row derives from its fields (spec §3 FIE entry, derived). */
export function entryFacts(fields: FieFields): EntryFacts {
  return entryFactsOf(entryOf(fields));
}

/**
 * The columns of an entry's row, from the entry as a stream hands it out (a FieEntry, or the text
 * reader's slot view: then no fields record is built, the stored fields are written from the slots).
 */
export function entryFactsOf(entry: FieEntryRead): EntryFacts {
  const { fields } = entry;
  const companyName = textOf(fields, 530);
  const ccc = fields[310]?.value ?? null;
  const registrationDate = textOf(fields, 100);
  const leaveStart = textOf(fields, 1020);
  const contingencyCode = fields[1090]?.value;
  const confirmationNumber = fields[1530]?.normalizedValue;
  return {
    entry_key: keyOf(entry),
    type: entry.type,
    nif: entry.nif,
    fullname: entry.fullname,
    company_name: companyName,
    ccc,
    registration_date: registrationDate,
    leave_start: leaveStart,
    leave_end: textOf(fields, 1150),
    entry_date: leaveStart ?? registrationDate,
    duration: entry.duration,
    short_duration: entry.shortDuration ? 1 : 0,
    canceled: entry.isCanceled ? 1 : 0,
    // In words once, when stored: the list shows them for thousands of entries without reading their fields.
    contingency: contingencyCode === undefined ? null : lookup('contingencies', contingencyCode),
    incidence_code: a3IncidentCode(entry),
    search_text: entrySearchText(entry.fullname, entry.nif, companyName),
    fields_json: storedFieldsOf(entry),
    parte_key: parteKeyOf(entry.type, entry.nif, ccc, leaveStart),
    confirmation_date: textOf(fields, 1520),
    confirmation_number: typeof confirmationNumber === 'number' ? confirmationNumber : null,
    sort_name: sortName(textOf(fields, 820), textOf(fields, 830), textOf(fields, 840)),
  };
}

/**
 * 'PEÑA LÓPEZ, MARÍA': the surnames, then the name (the list's fullname puts the name first, and a
 * list of workers is read by surname). Migration 0024-fie-sort-names writes the same for older rows.
 */
export function sortName(firstSurname: string | null, secondSurname: string | null, name: string | null): string {
  const surnames = [firstSurname, secondSurname].filter((part): part is string => part !== null && part.trim() !== '').map((part) => part.trim()).join(' ');
  const given = name?.trim() ?? '';
  return surnames !== '' && given !== '' ? `${surnames}, ${given}` : surnames || given;
}

/** Where an entry starts in A3: the disabled types (dop, nac, jub) are never sent. */
export function initialA3State(type: FieEntriesTable['type']): A3SyncState {
  return isFieTypeDisabled(type) ? 'excluded' : 'pending';
}

/** A field exactly as reading its text again gives it: label, section, ref and normalized value included. */
function readsBackTo(code: number, field: FieField): boolean {
  const def = FIELD_BY_CODE.get(code);
  if (!def) return false;
  const read = readField(def, field.value);
  return (
    read.kind === 'read' &&
    read.field.normalizedValue === field.normalizedValue &&
    read.field.label === field.label &&
    read.field.section === field.section &&
    read.field.ref === field.ref
  );
}

/**
 * The fields as stored: a catalogue field that reads back from its text is kept as that text alone
 * ({"1020": "20250110"}), anything else whole. Label, section and ref are the catalogue's and the
 * normalized value follows from the text, so the whole record was ~4 KB an entry, 8× the text, and
 * writing it was most of an upload's time.
 */
export function storedFields(fields: FieFields): string {
  return storedFieldsOf(entryOf(fields));
}

/** storedFields of an entry in either form; the text reader's fields are known to read back (readsBackFromText). */
function storedFieldsOf(entry: FieEntryRead): string {
  const known = readsBackFromText(entry);
  let json = '';
  forEachField(entry, (code, field) => {
    // JSON.stringify of the record, written out key by key in the same (ascending) order.
    const value = (known && FIELD_BY_CODE.has(code)) || readsBackTo(code, field) ? field.value : field;
    json += `${json === '' ? '' : ','}"${code}":${JSON.stringify(value)}`;
  });
  return `{${json}}`;
}

/** The stored fields read back into the decoder's record (see storedFields). */
export function parseFields(json: string): FieFields {
  const stored = JSON.parse(json) as Record<string, string | FieField>;
  const fields: FieFields = {};
  // Highest code first: see toFieldRecord in shared/fie/entry-builder.ts.
  for (const [code, value] of Object.entries(stored).reverse()) {
    if (typeof value !== 'string') {
      fields[Number(code)] = value;
      continue;
    }
    const def = FIELD_BY_CODE.get(Number(code));
    const read = def ? readField(def, value) : null;
    if (read?.kind === 'read') fields[Number(code)] = read.field;
  }
  return fields;
}

/** The decoder's entry, rebuilt from stored fields (for toA3SyncRecord). */
export function entryOf(fields: FieFields): FieEntry {
  return { fields, ...deriveFacts(fields), extraSegments: [] };
}

/**
 * Fields sent through the API, read as the decoder reads a file: a catalogue code is read again from
 * its `value` (the text as the file holds it, e.g. '20250110' for a date), so labels, sections and the
 * normalized values the server derives from are its own; a blank one is dropped. A code the catalogue
 * does not know is kept as sent.
 */
export function fieldsFromBody(body: FieEntryFieldsBody): FieFields {
  const fields: FieFields = {};
  // Highest code first: see toFieldRecord in shared/fie/entry-builder.ts.
  for (const [code, sent] of Object.entries(body).sort((a, b) => Number(b[0]) - Number(a[0]))) {
    const def = FIELD_BY_CODE.get(Number(code));
    if (def) {
      const read = readField(def, sent.value);
      if (read.kind === 'read') fields[def.code] = read.field;
      continue;
    }
    const field: FieField = {
      label: sent.label ?? '',
      value: sent.value,
      normalizedValue: sent.normalizedValue ?? sent.value,
      section: (sent.section ?? '') as FieSegment,
      ref: sent.ref ?? '',
    };
    fields[Number(code)] = field;
  }
  return fields;
}

/** A stored entry's row as the views read it. */
export type EntryRow = Pick<
  FieEntriesTable,
  | 'id' | 'type' | 'nif' | 'fullname' | 'company_name' | 'ccc' | 'registration_date' | 'leave_start' | 'leave_end' | 'duration'
  | 'short_duration' | 'canceled' | 'contingency' | 'incidence_code' | 'a3_state' | 'a3_error' | 'a3_synced_at' | 'parte_key' | 'is_current'
>;

/** An entry as the list shows it, under the document `fieId`, with its parte's confirmations (latest first). */
export function entryView(row: EntryRow, fieId: string, confirmations: readonly ParteConfirmation[] = []): FieEntryView {
  const incidenceCode = row.incidence_code;
  return {
    _id: row.id,
    fieId,
    type: row.type,
    typeLabel: fieTypeLabel(row.type),
    disabled: isFieTypeDisabled(row.type),
    fullname: row.fullname,
    nif: row.nif,
    companyName: row.company_name,
    ccc: row.ccc,
    formattedCcc: row.ccc === null ? null : formatCcc(row.ccc),
    registrationDate: row.registration_date,
    leaveStart: row.leave_start,
    leaveEnd: row.leave_end,
    duration: row.duration,
    shortDuration: row.short_duration === 1,
    isCanceled: row.canceled === 1,
    contingency: row.contingency,
    incidence: incidenceCode === null ? null : { code: incidenceCode, label: a3IncidentLabel(incidenceCode) },
    a3sync: row.a3_state,
    a3SyncedAt: row.a3_synced_at,
    // The A3 import's answer for this entry: the newest error-level line naming the NIF (spec §8).
    lastError: row.a3_error,
    confirmations: [...confirmations],
  };
}
