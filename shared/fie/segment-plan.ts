import { FIE_CATALOGUE, FIELDS_BY_SEGMENT, segmentEnd } from './layout.ts';
import type { FieFieldDef, FieSegment, LookupTableName } from './types.ts';

/*
 * The catalogue as the line reader (reader.ts) walks it: every field a numbered slot, every segment the
 * list of its slots, all decided once when the module loads so that reading a line is only arithmetic.
 */

/** How a slot is read (numbers rather than the type names, for a cheap switch). */
export const Kind = { Date: 0, Integer: 1, Flag: 2, Code: 3, Table: 4, Text: 5, Nif: 6 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

export interface Slot {
  /** Position in SLOTS (and in the catalogue). */
  index: number;
  code: number;
  /** [start, end) in the line, tag included. */
  start: number;
  end: number;
  kind: Kind;
  table: LookupTableName | undefined;
  label: string;
  section: FieSegment;
  ref: string;
  /**
   * Whether the reader keeps the fields it reads here by their text (value-table.ts): short values
   * (dates, codes, flags, counts) repeat through a file; names and identifiers are too long for the
   * table's keys and hardly repeat.
   */
  interned: boolean;
}

export interface SegmentPlan {
  tag: string;
  /** The segment's bit in the set of segments an entry has read. */
  bit: number;
  slots: readonly Slot[];
  /** Where the last catalogued field ends: text past it is a long line. */
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

/** The longest value a value table keys: up to 8 digits fit the key (see internKey in value-table.ts). */
export const INTERNED_WIDTH = 8;

export const SLOTS: readonly Slot[] = FIE_CATALOGUE.map((def, index) => {
  const kind = kindOf(def);
  return {
    index,
    code: def.code,
    start: def.offset,
    end: def.offset + def.length,
    kind,
    table: def.table,
    label: def.label,
    section: def.segment,
    ref: def.ref,
    interned: def.length <= INTERNED_WIDTH && kind !== Kind.Text && kind !== Kind.Nif,
  };
});

/** The slot of a catalogue code (the reader names the few it derives facts from). */
export function slotOf(code: number): number {
  const slot = SLOTS.find((candidate) => candidate.code === code);
  if (!slot) throw new Error(`FIE: el catálogo no tiene el campo ${code}`);
  return slot.index;
}

/** A three-character tag as one number, or -1 when a character is outside Latin-1. */
export function tagKey(text: string, start: number): number {
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

export const HEADER_PLAN = planOf('ETI', 0);

/** The segments read inside an EMP block, by tag key (an ETI there is kept as an extra line, like any unknown tag). */
export const PLANS: ReadonlyMap<number, SegmentPlan> = new Map(
  [...FIELDS_BY_SEGMENT.keys()].filter((tag) => tag !== 'ETI').map((tag, index) => [keyOf(tag), planOf(tag, 1 << index)] as const),
);

export const EMP = keyOf('EMP');
export const ETF = keyOf('ETF');
export const ETI = keyOf('ETI');
