import { parseFieDate } from './dates.ts';
import { FIELD_BY_CODE } from './layout.ts';
import { normalizeNif } from './nif.ts';
import { lookup } from './tables.ts';
import type { FieField, FieFieldDef, FieFields, FieValue } from './types.ts';

/** A field read from its slice: absent when blank, or valid/invalid when informed. */
export type ReadField = { kind: 'absent' } | { kind: 'read'; field: FieField; valid: boolean };

const ABSENT: ReadField = { kind: 'absent' };

/** Reads one catalogue field from its raw text (a fixed-width slice or a spreadsheet cell turned to text). */
export function readField(def: FieFieldDef, raw: string): ReadField {
  const value = raw.trim();
  if (value === '' || (def.type === 'date' && value === '00000000')) return ABSENT;
  const normalizedValue = normalize(def, value);
  if (def.type === 'nif' && normalizedValue === '') return ABSENT;
  const field: FieField = { label: def.label, value, normalizedValue, section: def.segment, ref: def.ref };
  return { kind: 'read', field, valid: normalizedValue !== null };
}

function normalize(def: FieFieldDef, value: string): FieValue {
  switch (def.type) {
    case 'date':
      return parseFieDate(value);
    case 'integer':
      return /^\d+$/.test(value) ? Number(value) : null;
    case 'flag':
      return value === 'S' ? true : value === 'N' ? false : null;
    case 'nif':
      return normalizeNif(value);
    case 'code':
      return def.table ? lookup(def.table, value) : value;
    case 'text':
      // Fixed-width names pad with runs of spaces; one space between words reads better.
      return value.replace(/\s+/g, ' ');
  }
}

/** Fields from raw texts keyed by code (unknown codes and blanks are skipped). */
export function readFields(values: Partial<Record<number, string>>): FieFields {
  // Highest code first: see toFieldRecord in entry-builder.ts for why the order matters to memory.
  const fields: FieFields = {};
  for (const [code, raw] of Object.entries(values).reverse()) {
    const def = FIELD_BY_CODE.get(Number(code));
    if (!def || raw === undefined) continue;
    const read = readField(def, raw);
    if (read.kind === 'read') fields[def.code] = read.field;
  }
  return fields;
}
