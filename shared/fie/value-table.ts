import { digitsValue } from './chars.ts';
import { INTERNED_WIDTH, SLOTS } from './segment-plan.ts';
import type { FieField } from './types.ts';

/*
 * A file repeats most short values (régimen, país, flags, table codes, a few dozen dates), so the reader
 * keeps, slot by slot, the fields it has read by their text: a repeat costs a table lookup instead of a
 * string, a FieField and its normalisation, and the document holds one object per distinct value.
 *
 * The key is a small integer: up to 8 digits as length·2^27 + value, or up to 3 Latin-1 characters
 * packed and negated; other values are not kept. Each slot has a direct-mapped table of BUCKETS keys: a
 * collision only means reading the value again. Only valid fields and absent ones (00000000, a NIF of
 * zeros) are kept, so a hit needs no look at the field itself: an invalid value, which must be reported
 * on every line it appears, is read every time.
 */

export const NO_KEY = 0x7fffffff;
const BUCKETS = 256;
const SHIFT = 24; // 32 - log2(BUCKETS)
/** 2^27, written out: `2 ** 27` is a call to pow in optimised code. */
const LENGTH_UNIT = 0x8000000;

/** The key of text[start, end), or NO_KEY when the value cannot have one. */
export function internKey(text: string, start: number, end: number): number {
  const length = end - start;
  if (length > INTERNED_WIDTH) return NO_KEY;
  const digits = digitsValue(text, start, end);
  if (digits >= 0) return length * LENGTH_UNIT + digits;
  if (length > 3) return NO_KEY;
  let packed = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0xff) return NO_KEY;
    packed = (packed << 8) | code;
  }
  return -((length << 24) | packed) - 1;
}

/** internKey of text[start, end) when it is all digits (nothing to trim), else NO_KEY. */
export function digitsKey(text: string, start: number, end: number): number {
  const length = end - start;
  if (length > INTERNED_WIDTH) return NO_KEY;
  const digits = digitsValue(text, start, end);
  return digits >= 0 ? length * LENGTH_UNIT + digits : NO_KEY;
}

export class ValueTable {
  private readonly keys = new Int32Array(SLOTS.length * BUCKETS).fill(NO_KEY);
  private readonly fields = new Array<FieField | null>(SLOTS.length * BUCKETS).fill(null);

  /** The field kept for a key: null when the value reads as absent, undefined when not kept. */
  get(slot: number, key: number): FieField | null | undefined {
    const at = bucket(slot, key);
    return this.keys[at] === key ? this.fields[at] : undefined;
  }

  /** Keeps a field read from a value (null: it read as absent). Invalid fields are not kept. */
  set(slot: number, key: number, field: FieField | null): void {
    if (field !== null && field.normalizedValue === null) return;
    const at = bucket(slot, key);
    this.keys[at] = key;
    this.fields[at] = field;
  }
}

function bucket(slot: number, key: number): number {
  return slot * BUCKETS + (Math.imul(key, 0x9e3779b1) >>> SHIFT);
}
