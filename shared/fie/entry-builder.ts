import { deriveFacts } from './derive.ts';
import { readField } from './fields.ts';
import type { FieDiagnostic, FieEntry, FieFieldDef, FieFields, FieLine } from './types.ts';

/** Collects one entry's fields (from text lines or a spreadsheet row) and reports bad values. */
export class EntryBuilder {
  private readonly fields: FieFields = {};
  private readonly extraSegments: FieLine[] = [];
  private readonly segmentsRead = new Set<string>();

  constructor(
    private readonly diagnostics: FieDiagnostic[],
    inherited: FieFields = {},
  ) {
    // Document-level fields (the ETI registration date) belong to every entry of the file.
    Object.assign(this.fields, inherited);
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
    this.fields[def.code] = read.field;
    if (!read.valid) {
      this.diagnostics.push({ kind: 'invalid-value', line, detail: `Valor no válido en ${def.code} (${def.label}): '${read.field.value}'` });
    }
  }

  hasFields(): boolean {
    return Object.keys(this.fields).length > 0;
  }

  /** The fields read so far, without deriving the entry facts (for document-level segments). */
  fieldsSoFar(): FieFields {
    return { ...this.fields };
  }

  build(): FieEntry {
    return { fields: this.fields, ...deriveFacts(this.fields), extraSegments: this.extraSegments };
  }
}

/** Reads the catalogued fields of one segment line into the builder (a short line reads as space-padded). */
export function readSegmentFields(builder: EntryBuilder, defs: readonly FieFieldDef[], line: string, lineNumber: number | null): void {
  for (const def of defs) builder.setField(def, line.slice(def.offset, def.offset + def.length), lineNumber);
}
