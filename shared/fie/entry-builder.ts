import { deriveFacts } from './derive.ts';
import { readField } from './fields.ts';
import type { FieDiagnostic, FieEntry, FieField, FieFieldDef, FieFields, FieLine } from './types.ts';

/**
 * The fields record from code -> field pairs. Codes are integer keys (100 … 2110), which V8 stores as
 * array elements: filled in ascending order it grows a ~2,000-slot array per entry (about 16 KB, so
 * gigabytes for a big file). Inserting the highest code first makes it a small dictionary instead.
 * Key order is unaffected: integer keys always enumerate in ascending order.
 */
export function toFieldRecord(fields: ReadonlyMap<number, FieField>): FieFields {
  const record: FieFields = {};
  for (const code of [...fields.keys()].sort((a, b) => b - a)) {
    const field = fields.get(code);
    if (field) record[code] = field;
  }
  return record;
}

/** Collects one entry's fields (from text lines or a spreadsheet row) and reports bad values. */
export class EntryBuilder {
  private readonly fields = new Map<number, FieField>();
  private readonly extraSegments: FieLine[] = [];
  private readonly segmentsRead = new Set<string>();

  constructor(
    private readonly diagnostics: FieDiagnostic[],
    inherited: ReadonlyMap<number, FieField> = new Map(),
  ) {
    // Document-level fields (the ETI registration date) belong to every entry of the file.
    for (const [code, field] of inherited) this.fields.set(code, field);
  }

  /** True the first time a segment is read for this entry; repeats are kept as extra lines instead. */
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

  hasFields(): boolean {
    return this.fields.size > 0;
  }

  /** The fields read so far, without deriving the entry facts (for document-level segments). */
  fieldsSoFar(): ReadonlyMap<number, FieField> {
    return new Map(this.fields);
  }

  build(): FieEntry {
    const fields = toFieldRecord(this.fields);
    return { fields, ...deriveFacts(fields), extraSegments: this.extraSegments };
  }
}

/** Reads the catalogued fields of one segment line into the builder (a short line reads as space-padded). */
export function readSegmentFields(builder: EntryBuilder, defs: readonly FieFieldDef[], line: string, lineNumber: number | null): void {
  for (const def of defs) builder.setField(def, line.slice(def.offset, def.offset + def.length), lineNumber);
}
