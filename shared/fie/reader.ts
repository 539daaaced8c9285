import { isBlank, isJsSpace } from './chars.ts';
import { formatDayMonthYear } from './dates.ts';
import { SHORT_DURATION_DAYS } from './derive.ts';
import { EntryFields } from './entry-fields.ts';
import { FieSlotEntry } from './slot-entry.ts';
import { isoDayNumber, readField } from './field-values.ts';
import { idTypeOf } from './nif.ts';
import { EMP, ETF, ETI, HEADER_PLAN, PLANS, slotOf, tagKey, type SegmentPlan, type Slot } from './segment-plan.ts';
import { digitsKey, internKey, NO_KEY, ValueTable } from './value-table.ts';
import type { FieDiagnostic, FieEntryType, FieField, FieLine, FieVersion } from './types.ts';

/*
 * The line reader behind decodeFieText and the streaming decoder: the rules of the text form (an ETI
 * header, EMP blocks, an ETF trailer, fixed-width fields) applied to one line at a time, given as a
 * range of a larger string so that no line or blank field becomes a string of its own.
 *
 * What it produces is exactly what the field-by-field decoder produced (kept as the tests' oracle in
 * testing/reference-text.ts; EntryBuilder and readField still read spreadsheets). The work is laid out
 * for V8: the catalogue walked as precomputed slots (segment-plan.ts), fields judged on char codes (no
 * trim or regex per field, field-values.ts), repeated values read once per document (value-table.ts),
 * and each entry handed out as a view of its slots (slot-entry.ts), its fields record built only by a
 * consumer that serialises it.
 */

const S100 = slotOf(100);
const S670 = slotOf(670);
const S820 = slotOf(820);
const S830 = slotOf(830);
const S840 = slotOf(840);
const S1020 = slotOf(1020);
const S1150 = slotOf(1150);
const S1170 = slotOf(1170);
const S1171 = slotOf(1171);
const S1520 = slotOf(1520);
const S1530 = slotOf(1530);
const S1610 = slotOf(1610);
const S1810 = slotOf(1810);
const S1910 = slotOf(1910);
const S2110 = slotOf(2110);

/** The value tables cost more than they save on a file of a few entries. */
const TABLES_AFTER_ENTRIES = 16;

export type FieHeaderState =
  | { status: 'waiting' }
  | { status: 'ignored'; reason: string }
  | { status: 'read'; version: FieVersion; registryDate: string | null };

export interface FieReaderSink {
  /** The entry just closed, through the reader's one slot view: valid during this call only. */
  entry(entry: FieSlotEntry): void;
  diagnostic(diagnostic: FieDiagnostic): void;
}

const NOT_A_FIE = 'El archivo no empieza por la cabecera ETI de un FIE';

/**
 * Reads the text form line by line. Call line() for every line in order (without its line break, the
 * way splitFieLines cuts them), then finish(). Entries go to the sink as their blocks end (at the next
 * EMP, at ETF, or at finish), diagnostics as they are found: the same ones, in the same order, as
 * decodeFieText returns.
 */
export class FieLineReader {
  header: FieHeaderState = { status: 'waiting' };
  entries = 0;
  diagnostics = 0;

  private lineNumber = 0;
  private state: 'header' | 'body' | 'trailer' | 'done' = 'header';
  private readonly fields = new EntryFields();
  private readonly view = new FieSlotEntry(this.fields);
  /** Made once a file has shown it is more than a handful of entries. */
  private values: ValueTable | null = null;
  private inherited: ReadonlyArray<readonly [number, FieField]> = [];
  private open = false;
  /** The segments read in the current entry, as plan bits. */
  private claimed = 0;
  private extraSegments: FieLine[] = [];
  private trailerLine = 0;
  private linesAfterTrailer = 0;

  constructor(private readonly sink: FieReaderSink) {}

  /** The next line: text[start, end). */
  line(text: string, start: number, end: number): void {
    this.lineNumber += 1;
    switch (this.state) {
      case 'body':
        this.bodyLine(text, start, end);
        return;
      case 'header':
        this.headerLine(text, start, end);
        return;
      case 'trailer':
        if (!isBlank(text, start, end)) this.linesAfterTrailer += 1;
        return;
      case 'done':
        return;
    }
  }

  /** Ends the document: the last entry, and what the trailer says. */
  finish(): void {
    if (this.state === 'header') {
      this.header = { status: 'ignored', reason: NOT_A_FIE };
    } else if (this.state === 'body') {
      this.closeEntry();
      this.report({ kind: 'missing-trailer', line: null, detail: 'Falta la línea final ETF' });
    } else if (this.state === 'trailer' && this.linesAfterTrailer > 0) {
      this.report({ kind: 'after-trailer', line: this.trailerLine + 1, detail: `${this.linesAfterTrailer} líneas después de ETF no se han leído` });
    }
    this.state = 'done';
  }

  private report(diagnostic: FieDiagnostic): void {
    this.diagnostics += 1;
    this.sink.diagnostic(diagnostic);
  }

  private headerLine(text: string, start: number, end: number): void {
    if (isBlank(text, start, end)) return;
    const header = text.slice(start, end);
    this.state = 'done';
    if (!header.startsWith('ETI')) {
      this.header = { status: 'ignored', reason: NOT_A_FIE };
      return;
    }
    // The version sits in the header after the tag ('ETIFIE40…'); searched rather than sliced because
    // no FIE sample confirms its offset.
    const version = /FIE\d/.exec(header.slice(3))?.[0];
    if (version === undefined) {
      this.header = { status: 'ignored', reason: 'La cabecera ETI no indica la versión del FIE' };
      return;
    }
    if (version !== 'FIE3' && version !== 'FIE4') {
      this.header = { status: 'ignored', reason: `Versión de FIE no admitida: ${version} (se admiten FIE3 y FIE4)` };
      return;
    }
    this.readFields(HEADER_PLAN, text, start, end);
    // Document-level fields (the ETI registration date) belong to every entry of the file.
    const inherited: Array<readonly [number, FieField]> = [];
    for (const slot of HEADER_PLAN.slots) {
      const field = this.fields.bySlot[slot.index];
      if (field !== undefined) inherited.push([slot.index, field]);
    }
    this.fields.clear();
    this.inherited = inherited;
    const date = inherited.find(([index]) => index === S100)?.[1].normalizedValue;
    this.header = { status: 'read', version, registryDate: typeof date === 'string' ? formatDayMonthYear(date) : null };
    this.state = 'body';
  }

  private bodyLine(text: string, start: number, end: number): void {
    if (isBlank(text, start, end)) return;
    const key = end - start >= 3 ? tagKey(text, start) : -1;
    if (key === ETF) {
      this.closeEntry();
      this.trailerLine = this.lineNumber;
      this.state = 'trailer';
      return;
    }
    if (key === EMP) {
      this.closeEntry();
      this.openEntry();
    } else if (!this.open) {
      this.report({ kind: 'orphan-line', line: this.lineNumber, detail: `Línea fuera de un bloque EMP: ${text.slice(start, end)}` });
      return;
    }
    const plan = key === ETI ? undefined : PLANS.get(key);
    if (plan === undefined) {
      // Unknown segments (IT2, OIT, newer ones) are kept verbatim, never fatal.
      this.keepLine(text, start, end);
      return;
    }
    if ((this.claimed & plan.bit) !== 0) {
      this.report({ kind: 'repeated-segment', line: this.lineNumber, detail: `Segmento ${plan.tag} repetido en el mismo bloque; se conserva el primero` });
      this.keepLine(text, start, end);
      return;
    }
    this.claimed |= plan.bit;
    this.readFields(plan, text, start, end);
    if (end - start > plan.end) {
      this.report({ kind: 'long-line', line: this.lineNumber, detail: `${plan.tag} más largo de lo previsto; texto sobrante: '${text.slice(start + plan.end, end)}'` });
    }
  }

  private keepLine(text: string, start: number, end: number): void {
    const line = text.slice(start, end);
    this.extraSegments.push({ line: this.lineNumber, tag: line.slice(0, 3), text: line });
  }

  private openEntry(): void {
    if (this.values === null && this.entries >= TABLES_AFTER_ENTRIES) this.values = new ValueTable();
    this.open = true;
    this.claimed = 0;
    this.extraSegments = [];
    for (const [index, field] of this.inherited) this.fields.set(index, field);
  }

  /** Reads the catalogued fields of a segment line (a short line reads as space-padded). */
  private readFields(plan: SegmentPlan, text: string, lineStart: number, lineEnd: number): void {
    const values = this.values;
    const slots = plan.slots;
    for (let s = 0; s < slots.length; s += 1) {
      const slot = slots[s] as Slot;
      let start = lineStart + slot.start;
      let end = lineStart + slot.end;
      if (end > lineEnd) end = lineEnd;
      if (start >= end) continue;
      // Most short values fill their slot with digits: then they need no trimming to be keyed.
      let key = values !== null && slot.interned ? digitsKey(text, start, end) : NO_KEY;
      if (key === NO_KEY) {
        while (start < end && isJsSpace(text.charCodeAt(start))) start += 1;
        while (end > start && isJsSpace(text.charCodeAt(end - 1))) end -= 1;
        if (start === end) continue;
        if (values !== null && slot.interned) key = internKey(text, start, end);
      }
      if (key !== NO_KEY) {
        // A hit is a valid field or an absent one (see value-table.ts): nothing to report.
        const known = (values as ValueTable).get(slot.index, key);
        if (known !== undefined) {
          if (known !== null) this.fields.set(slot.index, known);
          continue;
        }
      }
      const field = readField(slot, text, start, end);
      if (key !== NO_KEY) (values as ValueTable).set(slot.index, key, field);
      if (field === null) continue;
      this.fields.set(slot.index, field);
      if (field.normalizedValue === null) {
        this.report({ kind: 'invalid-value', line: this.lineNumber, detail: `Valor no válido en ${slot.code} (${slot.label}): '${field.value}'` });
      }
    }
  }

  private closeEntry(): void {
    if (!this.open) return;
    this.open = false;
    const slots = this.fields.bySlot;

    // deriveFacts (derive.ts), read from the slots.
    const type: FieEntryType = slots[S1610]
      ? 'dip'
      : slots[S1520] || slots[S1530]
        ? 'cit'
        : slots[S2110] || slots[S1910]?.value === 'NC'
          ? 'nac'
          : slots[S1910]
            ? 'dop'
            : slots[S1810]
              ? 'jub'
              : slots[S1150]
                ? 'alta'
                : 'baja';
    const leaveStart = slots[S1020]?.normalizedValue;
    const leaveEnd = slots[S1150]?.normalizedValue;
    let duration: number | null = null;
    if (typeof leaveStart === 'string' && typeof leaveEnd === 'string') {
      const days = isoDayNumber(leaveEnd) - isoDayNumber(leaveStart) + 1;
      duration = days >= 1 ? days : null;
    }
    const nifValue = slots[S670]?.normalizedValue;
    const nif = typeof nifValue === 'string' && nifValue !== '' ? nifValue : null;
    const fullname = fullName(slots[S840], slots[S820], slots[S830]);
    const isCanceled = slots[S1170]?.value === 'S' || slots[S1171]?.value === 'S';

    const view = this.view;
    view.fullname = fullname;
    view.type = type;
    view.isAlta = type === 'alta';
    view.isBaja = type === 'baja';
    view.duration = duration;
    view.shortDuration = duration !== null && duration <= SHORT_DURATION_DAYS;
    view.isCanceled = isCanceled;
    view.nif = nif;
    view.idType = nif === null ? null : idTypeOf(nif);
    view.extraSegments = this.extraSegments;
    this.entries += 1;
    try {
      this.sink.entry(view);
    } finally {
      this.fields.clear();
    }
  }
}

function namePart(field: FieField | undefined): string {
  const value = field?.normalizedValue;
  return typeof value === 'string' ? value : '';
}

function joinName(full: string, part: string): string {
  return part === '' ? full : full === '' ? part : `${full} ${part}`;
}

/** 'MARIA GARCIA LOPEZ': name, then surnames, skipping the missing ones (fullName in derive.ts). */
function fullName(name: FieField | undefined, first: FieField | undefined, second: FieField | undefined): string {
  return joinName(joinName(namePart(name), namePart(first)), namePart(second));
}
