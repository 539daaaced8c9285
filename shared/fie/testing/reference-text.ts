/**
 * The text decoder as it was before the line reader (reader.ts): field by field, with regexes, Date and
 * String.prototype.trim. Kept only as the oracle of the equivalence tests (reader.test.ts): whatever the
 * fast reader does, its documents must equal this one's.
 */
import { deriveFacts } from '../derive.ts';
import { FIELDS_BY_SEGMENT, segmentEnd } from '../layout.ts';
import { normalizeNif } from '../nif.ts';
import { registryDateOf } from '../registry-date.ts';
import { lookup } from '../tables.ts';
import type { FieDiagnostic, FieDocument, FieEntry, FieField, FieFieldDef, FieFields, FieLine, FieValue, FieVersion } from '../types.ts';

function parseFieDate(text: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const [, year, month, day] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const valid = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return valid && Number(year) >= 1900 ? `${year}-${month}-${day}` : null;
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
      return value.replace(/\s+/g, ' ');
  }
}

type ReadField = { kind: 'absent' } | { kind: 'read'; field: FieField; valid: boolean };

function readField(def: FieFieldDef, raw: string): ReadField {
  const value = raw.trim();
  if (value === '' || (def.type === 'date' && value === '00000000')) return { kind: 'absent' };
  const normalizedValue = normalize(def, value);
  if (def.type === 'nif' && normalizedValue === '') return { kind: 'absent' };
  return { kind: 'read', field: { label: def.label, value, normalizedValue, section: def.segment, ref: def.ref }, valid: normalizedValue !== null };
}

function toFieldRecord(fields: ReadonlyMap<number, FieField>): FieFields {
  const record: FieFields = {};
  for (const code of [...fields.keys()].sort((a, b) => b - a)) {
    const field = fields.get(code);
    if (field) record[code] = field;
  }
  return record;
}

class EntryBuilder {
  private readonly fields = new Map<number, FieField>();
  private readonly extraSegments: FieLine[] = [];
  private readonly segmentsRead = new Set<string>();

  constructor(
    private readonly diagnostics: FieDiagnostic[],
    inherited: ReadonlyMap<number, FieField> = new Map(),
  ) {
    for (const [code, field] of inherited) this.fields.set(code, field);
  }

  claimSegment(tag: string): boolean {
    if (this.segmentsRead.has(tag)) return false;
    this.segmentsRead.add(tag);
    return true;
  }

  keepLine(line: FieLine): void {
    this.extraSegments.push(line);
  }

  setField(def: FieFieldDef, raw: string, line: number | null): void {
    const read = readField(def, raw);
    if (read.kind === 'absent') return;
    this.fields.set(def.code, read.field);
    if (!read.valid) {
      this.diagnostics.push({ kind: 'invalid-value', line, detail: `Valor no válido en ${def.code} (${def.label}): '${read.field.value}'` });
    }
  }

  fieldsSoFar(): ReadonlyMap<number, FieField> {
    return new Map(this.fields);
  }

  build(): FieEntry {
    const fields = toFieldRecord(this.fields);
    return { fields, ...deriveFacts(fields), extraSegments: this.extraSegments };
  }
}

function readSegmentFields(builder: EntryBuilder, defs: readonly FieFieldDef[], line: string, lineNumber: number | null): void {
  for (const def of defs) builder.setField(def, line.slice(def.offset, def.offset + def.length), lineNumber);
}

function isSupportedVersion(version: string): version is FieVersion {
  return version === 'FIE3' || version === 'FIE4';
}

function ignored(reason: string): FieDocument {
  return { format: 'text', version: null, ignored: true, reason, registryDate: null, entries: [], diagnostics: [] };
}

export function referenceDecodeFieText(text: string): FieDocument {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let index = lines.findIndex((line) => line.trim() !== '');
  const header = index === -1 ? undefined : lines[index];
  if (header === undefined || !header.startsWith('ETI')) {
    return ignored('El archivo no empieza por la cabecera ETI de un FIE');
  }
  const version = /FIE\d/.exec(header.slice(3))?.[0];
  if (version === undefined) return ignored('La cabecera ETI no indica la versión del FIE');
  if (!isSupportedVersion(version)) return ignored(`Versión de FIE no admitida: ${version} (se admiten FIE3 y FIE4)`);

  const diagnostics: FieDiagnostic[] = [];
  const headerFields = new EntryBuilder(diagnostics);
  readSegmentFields(headerFields, FIELDS_BY_SEGMENT.get('ETI') ?? [], header, index + 1);
  const inherited = headerFields.fieldsSoFar();

  const entries: FieEntry[] = [];
  let current: EntryBuilder | null = null;
  let trailerFound = false;
  for (index += 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const lineNumber = index + 1;
    if (line.trim() === '') continue;
    const tag = line.slice(0, 3);
    if (tag === 'ETF') {
      trailerFound = true;
      const remaining = lines.slice(index + 1).filter((rest) => rest.trim() !== '').length;
      if (remaining > 0) diagnostics.push({ kind: 'after-trailer', line: index + 2, detail: `${remaining} líneas después de ETF no se han leído` });
      break;
    }
    if (tag === 'EMP') {
      if (current) entries.push(current.build());
      current = new EntryBuilder(diagnostics, inherited);
    }
    if (!current) {
      diagnostics.push({ kind: 'orphan-line', line: lineNumber, detail: `Línea fuera de un bloque EMP: ${line}` });
      continue;
    }
    readLine(current, tag, line, lineNumber, diagnostics);
  }
  if (current) entries.push(current.build());
  if (!trailerFound) diagnostics.push({ kind: 'missing-trailer', line: null, detail: 'Falta la línea final ETF' });

  return {
    format: 'text',
    version,
    ignored: false,
    registryDate: registryDateOf(entries.length > 0 ? entries.map((entry) => entry.fields) : [toFieldRecord(inherited)]),
    entries,
    diagnostics,
  };
}

function readLine(entry: EntryBuilder, tag: string, line: string, lineNumber: number, diagnostics: FieDiagnostic[]): void {
  const defs = FIELDS_BY_SEGMENT.get(tag);
  if (!defs || tag === 'ETI' || !entry.claimSegment(tag)) {
    if (defs && tag !== 'ETI') {
      diagnostics.push({ kind: 'repeated-segment', line: lineNumber, detail: `Segmento ${tag} repetido en el mismo bloque; se conserva el primero` });
    }
    entry.keepLine({ line: lineNumber, tag, text: line });
    return;
  }
  readSegmentFields(entry, defs, line, lineNumber);
  const end = segmentEnd(tag);
  if (line.length > end) {
    diagnostics.push({ kind: 'long-line', line: lineNumber, detail: `${tag} más largo de lo previsto; texto sobrante: '${line.slice(end)}'` });
  }
}
