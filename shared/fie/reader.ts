import { digitsValue, isBlank, isJsSpace } from './chars.ts';
import { daysFromCivil, formatDayMonthYear, isFieDateNumber } from './dates.ts';
import { SHORT_DURATION_DAYS } from './derive.ts';
import { FIE_CATALOGUE, FIELDS_BY_SEGMENT, segmentEnd } from './layout.ts';
import { idTypeOf, normalizeNifFast } from './nif.ts';
import { lookupTrimmed } from './tables.ts';
import type { FieDiagnostic, FieEntry, FieEntryType, FieField, FieFieldDef, FieFields, FieLine, FieSegment, FieValue, FieVersion, LookupTableName } from './types.ts';

/*
 * The line reader behind decodeFieText and the streaming decoder: the rules of the text form (an ETI
 * header, EMP blocks, an ETF trailer, fixed-width fields) applied to one line at a time, given as a
 * range of a larger string so that no line or blank field becomes a string of its own.
 *
 * What it produces is exactly what the field-by-field decoder produced (kept as the tests' oracle in
 * testing/reference-text.ts; EntryBuilder and readField still read spreadsheets). The work is laid out
 * for V8: fields judged on char codes (no trim or regex per field), dates by arithmetic (no Date),
 * repeated values read once per document (internKey), every FieField and every entry built in one
 * object literal in field order, and the fields record copied from a literal of its key set
 * (makeRecordFactory) rather than grown key by key.
 */

/** How a slot is read (numbers rather than the type names, for a cheap switch). */
const Kind = { Date: 0, Integer: 1, Flag: 2, Code: 3, Table: 4, Text: 5, Nif: 6 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

interface Slot {
  index: number;
  code: number;
  start: number;
  end: number;
  kind: Kind;
  table: LookupTableName | undefined;
  label: string;
  section: FieSegment;
  ref: string;
}

interface SegmentPlan {
  tag: string;
  bit: number;
  slots: readonly Slot[];
  end: number;
}

function kindOf(def: FieFieldDef): Kind {
  switch (def.type) {
    case 'date':
      return Kind.Date;
    case 'integer':
      return Kind.Integer;
    case 'flag':
      return Kind.Flag;
    case 'code':
      return def.table ? Kind.Table : Kind.Code;
    case 'text':
      return Kind.Text;
    case 'nif':
      return Kind.Nif;
  }
}

const SLOTS: readonly Slot[] = FIE_CATALOGUE.map((def, index) => ({
  index,
  code: def.code,
  start: def.offset,
  end: def.offset + def.length,
  kind: kindOf(def),
  table: def.table,
  label: def.label,
  section: def.segment,
  ref: def.ref,
}));

const SLOT_CODES: readonly number[] = SLOTS.map((slot) => slot.code);

function slotOf(code: number): number {
  const slot = SLOTS.find((candidate) => candidate.code === code);
  if (!slot) throw new Error(`FIE: el catálogo no tiene el campo ${code}`);
  return slot.index;
}

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

/** A three-character tag as one number, or -1 when a character is outside Latin-1. */
function tagKey(text: string, start: number): number {
  const a = text.charCodeAt(start);
  const b = text.charCodeAt(start + 1);
  const c = text.charCodeAt(start + 2);
  if (a > 0xff || b > 0xff || c > 0xff) return -1;
  return (a << 16) | (b << 8) | c;
}

const keyOf = (tag: string) => tagKey(tag, 0);

function planOf(tag: string, bit: number): SegmentPlan {
  const defs = FIELDS_BY_SEGMENT.get(tag) ?? [];
  return { tag, bit, slots: defs.map((def) => SLOTS[FIE_CATALOGUE.indexOf(def)] as Slot), end: segmentEnd(tag) };
}

const HEADER_PLAN = planOf('ETI', 0);
/** The segments read inside an EMP block (an ETI there is kept as an extra line, like any unknown tag). */
const PLANS: ReadonlyMap<number, SegmentPlan> = new Map(
  [...FIELDS_BY_SEGMENT.keys()].filter((tag) => tag !== 'ETI').map((tag, index) => [keyOf(tag), planOf(tag, 1 << index)] as const),
);
const EMP = keyOf('EMP');
const ETF = keyOf('ETF');
const ETI = keyOf('ETI');

/** ISO texts of the dates seen, by yyyymmdd: a file repeats few dates many times. Bounded. */
const isoDates = new Map<number, string>();
const ISO_CACHE_LIMIT = 4096;

function isoDate(number: number): string {
  let iso = isoDates.get(number);
  if (iso === undefined) {
    const text = String(number);
    iso = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
    if (isoDates.size >= ISO_CACHE_LIMIT) isoDates.clear();
    isoDates.set(number, iso);
  }
  return iso;
}

/** Days since 1970 of an ISO date the reader made ('yyyy-mm-dd'). */
function isoDayNumber(iso: string): number {
  return daysFromCivil(digitsValue(iso, 0, 4), digitsValue(iso, 5, 7), digitsValue(iso, 8, 10));
}

/** value.replace(/\s+/g, ' ') for a trimmed value, without the regex when no run needs folding. */
function foldSpaces(value: string): string {
  let previousSpace = false;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code === 0x20) {
      if (previousSpace) return value.replace(/\s+/g, ' ');
      previousSpace = true;
    } else if (isJsSpace(code)) {
      return value.replace(/\s+/g, ' ');
    } else {
      previousSpace = false;
    }
  }
  return value;
}

/** One informed field: text[start, end) is its trimmed, non-empty value. Null when it reads as absent. */
function readField(slot: Slot, text: string, start: number, end: number): FieField | null {
  let normalizedValue: FieValue;
  let value: string;
  switch (slot.kind) {
    case Kind.Date: {
      const digits = end - start === 8 ? digitsValue(text, start, end) : -1;
      if (digits === 0) return null; // 00000000: no date
      value = text.slice(start, end);
      normalizedValue = digits > 0 && isFieDateNumber(digits) ? isoDate(digits) : null;
      break;
    }
    case Kind.Integer: {
      value = text.slice(start, end);
      const number = digitsValue(text, start, end);
      normalizedValue = number >= 0 ? number : /^\d+$/.test(value) ? Number(value) : null;
      break;
    }
    case Kind.Flag: {
      const code = end - start === 1 ? text.charCodeAt(start) : 0;
      value = text.slice(start, end);
      normalizedValue = code === 0x53 ? true : code === 0x4e ? false : null;
      break;
    }
    case Kind.Code:
      value = text.slice(start, end);
      normalizedValue = value;
      break;
    case Kind.Table:
      value = text.slice(start, end);
      normalizedValue = lookupTrimmed(slot.table as LookupTableName, value);
      break;
    case Kind.Text:
      value = text.slice(start, end);
      // Fixed-width names pad with runs of spaces; one space between words reads better.
      normalizedValue = foldSpaces(value);
      break;
    case Kind.Nif:
      value = text.slice(start, end);
      normalizedValue = normalizeNifFast(value);
      if (normalizedValue === '') return null;
      break;
  }
  return { label: slot.label, value, normalizedValue, section: slot.section, ref: slot.ref };
}

/*
 * A file repeats most values (régimen, país, flags, table codes, a few dozen dates), so each slot keeps
 * the fields it has read, by their raw text: a repeat costs one array lookup instead of a string, a
 * FieField and its normalisation, and the document holds one object per distinct value. The key is a
 * small integer: up to 8 digits as length·2^27 + value, or up to 3 Latin-1 characters packed and
 * negated; longer values (CCC, NAF, NIF, names) are not kept. Each slot has a direct-mapped table of
 * SEEN_BUCKETS keys: a collision only means reading the value again.
 */
const NO_KEY = 0x7fffffff;
const SEEN_BUCKETS = 256;
const SEEN_SHIFT = 24; // 32 - log2(SEEN_BUCKETS)
/** The tables cost more than they save on a file of a few entries. */
const SEEN_AFTER_ENTRIES = 16;
/** What the tables keep for a value that reads as absent (00000000, a NIF of zeros). Never handed out. */
const ABSENT: FieField = { label: '', value: '', normalizedValue: null, section: 'ETI', ref: '' };

function internKey(text: string, start: number, end: number): number {
  const length = end - start;
  if (length > 8) return NO_KEY;
  const digits = digitsValue(text, start, end);
  if (digits >= 0) return length * 2 ** 27 + digits;
  if (length > 3) return NO_KEY;
  let packed = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0xff) return NO_KEY;
    packed = (packed << 8) | code;
  }
  return -((length << 24) | packed) - 1;
}

export type FieHeaderState =
  | { status: 'waiting' }
  | { status: 'ignored'; reason: string }
  | { status: 'read'; version: FieVersion; registryDate: string | null };

export interface FieReaderSink {
  entry(entry: FieEntry): void;
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
  private readonly slots: Array<FieField | undefined> = SLOTS.map(() => undefined);
  /** The slots set in the current entry, in the order they were set, and the same set as bits. */
  private readonly present = new Int32Array(SLOTS.length);
  private presentCount = 0;
  private presentLow = 0;
  private presentHigh = 0;
  /** The tables of values read (see internKey), made once a file has shown it is more than a handful of entries. */
  private seenKeys: Int32Array | null = null;
  private seenFields: FieField[] = [];
  private inherited: ReadonlyArray<readonly [number, FieField]> = [];
  private open = false;
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
      const field = this.slots[slot.index];
      if (field !== undefined) inherited.push([slot.index, field]);
    }
    this.clearSlots();
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
    if (this.seenKeys === null && this.entries >= SEEN_AFTER_ENTRIES) {
      this.seenKeys = new Int32Array(SLOTS.length * SEEN_BUCKETS).fill(NO_KEY);
      this.seenFields = new Array<FieField>(SLOTS.length * SEEN_BUCKETS).fill(ABSENT);
    }
    this.open = true;
    this.claimed = 0;
    this.extraSegments = [];
    for (const [index, field] of this.inherited) this.setSlot(index, field);
  }

  /** Each slot is set at most once per entry: a segment is read once, and ETI fields only come inherited. */
  private setSlot(index: number, field: FieField): void {
    this.slots[index] = field;
    this.present[this.presentCount] = index;
    this.presentCount += 1;
    if (index < LOW_BITS) this.presentLow |= 1 << index;
    else this.presentHigh |= 1 << (index - LOW_BITS);
  }

  private clearSlots(): void {
    for (let k = 0; k < this.presentCount; k += 1) this.slots[this.present[k] as number] = undefined;
    this.presentCount = 0;
    this.presentLow = 0;
    this.presentHigh = 0;
  }

  /** Reads the catalogued fields of a segment line (a short line reads as space-padded). */
  private readFields(plan: SegmentPlan, text: string, lineStart: number, lineEnd: number): void {
    const slots = plan.slots;
    for (let s = 0; s < slots.length; s += 1) {
      const slot = slots[s] as Slot;
      let start = lineStart + slot.start;
      let end = lineStart + slot.end;
      if (end > lineEnd) end = lineEnd;
      if (start >= end) continue;
      while (start < end && isJsSpace(text.charCodeAt(start))) start += 1;
      while (end > start && isJsSpace(text.charCodeAt(end - 1))) end -= 1;
      if (start === end) continue;

      const seenKeys = this.seenKeys;
      const key = seenKeys === null ? NO_KEY : internKey(text, start, end);
      let field: FieField | null;
      if (key === NO_KEY || seenKeys === null) {
        field = readField(slot, text, start, end);
      } else {
        const at = slot.index * SEEN_BUCKETS + (Math.imul(key, 0x9e3779b1) >>> SEEN_SHIFT);
        if (seenKeys[at] === key) {
          const known = this.seenFields[at] as FieField;
          field = known === ABSENT ? null : known;
        } else {
          field = readField(slot, text, start, end);
          seenKeys[at] = key;
          this.seenFields[at] = field ?? ABSENT;
        }
      }
      if (field === null) continue;
      this.setSlot(slot.index, field);
      if (field.normalizedValue === null) {
        this.report({ kind: 'invalid-value', line: this.lineNumber, detail: `Valor no válido en ${slot.code} (${slot.label}): '${field.value}'` });
      }
    }
  }

  private closeEntry(): void {
    if (!this.open) return;
    this.open = false;
    const slots = this.slots;

    const fields = this.fieldRecord();

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

    const entry: FieEntry = {
      fields,
      fullname: fullName(slots[S840], slots[S820], slots[S830]),
      type,
      isAlta: type === 'alta',
      isBaja: type === 'baja',
      duration,
      shortDuration: duration !== null && duration <= SHORT_DURATION_DAYS,
      isCanceled: slots[S1170]?.value === 'S' || slots[S1171]?.value === 'S',
      nif,
      idType: nif === null ? null : idTypeOf(nif),
      extraSegments: this.extraSegments,
    };
    this.clearSlots();
    this.entries += 1;
    this.sink.entry(entry);
  }

  /** The entry's fields record: a copy of its key set's literal, values stored over the zeros. */
  private fieldRecord(): FieFields {
    const signature = this.presentHigh * 2 ** LOW_BITS + this.presentLow;
    let factory = recordFactories.get(signature);
    if (factory === undefined) {
      factory = makeRecordFactory(SLOTS.filter((slot) => this.slots[slot.index] !== undefined).map((slot) => slot.code));
      if (recordFactories.size >= FACTORY_CACHE_LIMIT) recordFactories.clear();
      recordFactories.set(signature, factory);
    }
    const record = factory();
    for (let k = 0; k < this.presentCount; k += 1) {
      const index = this.present[k] as number;
      record[SLOT_CODES[index] as number] = this.slots[index] as FieField;
    }
    return record;
  }
}

/**
 * The fields record of an entry. Its keys are integers (100 … 2110), which V8 keeps as elements: added
 * one by one in ascending order they make a ~2,000-slot array per entry (toFieldRecord in
 * entry-builder.ts); in descending order, a dictionary that costs one runtime call and a rehash now and
 * then per key, about half of all the decoding time. An object literal with the entry's codes, e.g.
 * `{ 1170: 0, 1020: 0, …, 100: 0 }`, is a copy of a boilerplate dictionary made once per set of codes:
 * one native copy, sized once. So a small factory of that literal is made per key set (the code is
 * only catalogue numbers, never file content) and the values are stored over the zeros. Where code
 * cannot be made at run time (a page whose CSP forbids it), JSON.parse of the same key set is the
 * fallback: also one native call, about twice as slow.
 */
type RecordFactory = () => FieFields;

const recordFactories = new Map<number, RecordFactory>();
const FACTORY_CACHE_LIMIT = 4096;
const LOW_BITS = 26;
// The key set is a bit per slot in two 26-bit halves, one exact double: 52 slots at most.
if (SLOTS.length > 2 * LOW_BITS) throw new Error('FIE: el catálogo tiene demasiados campos para la firma de registros');

let generatedCode: boolean | null = null;

function makeRecordFactory(codes: readonly number[]): RecordFactory {
  const descending = [...codes].sort((a, b) => b - a);
  if (generatedCode !== false) {
    try {
      const factory = new Function(`return { ${descending.map((code) => `${code}: 0`).join(', ')} };`) as RecordFactory;
      generatedCode = true;
      return factory;
    } catch {
      generatedCode = false;
    }
  }
  const template = `{${descending.map((code) => `"${code}":0`).join(',')}}`;
  return () => JSON.parse(template) as FieFields;
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
