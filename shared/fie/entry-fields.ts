import { SLOTS } from './segment-plan.ts';
import type { FieField, FieFields } from './types.ts';

/*
 * The fields of the entry being read, by slot and by code, and the code-keyed record built from them
 * when an entry is serialised (FieSlotEntry.record() in slot-entry.ts).
 *
 * The record's keys are integers (100 … 2110), which V8 keeps as elements: added one by one in ascending
 * order they make a ~2,000-slot array per entry (toFieldRecord in entry-builder.ts); in descending
 * order, a dictionary that costs one runtime call and a rehash now and then per key. An object literal
 * with the entry's codes, e.g. `{ 1170: 0, 1020: 0, …, 100: 0 }`, is a copy of a boilerplate dictionary
 * made once per set of codes: one native copy, sized once. So a small factory of that literal is made
 * per key set (the code is only catalogue numbers, never file content) and the values are stored over
 * the zeros. Storing into a dictionary is still a runtime call per field, the largest single cost of
 * decoding; no other way to build such an object (Object.assign, fromEntries, spread, a literal with
 * the values) is cheaper in V8. Where code cannot be made at run time (a page whose CSP forbids it),
 * JSON.parse of the same key set is the fallback: also one native call, about twice as slow.
 */

type RecordFactory = () => FieFields;

interface RecordShape {
  make: RecordFactory;
  /** The codes of the key set and their slots, in slot order. */
  codes: readonly number[];
  slots: readonly number[];
}

const shapes = new Map<number, RecordShape>();
const SHAPE_CACHE_LIMIT = 4096;
/** The key set is a bit per slot in two 26-bit halves, one exact double: 52 slots at most. */
const LOW_BITS = 26;
const HIGH_UNIT = 0x4000000; // 2^26, written out (`2 ** 26` is a call to pow in optimised code)
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

function shapeOf(signature: number, fields: ReadonlyArray<FieField | undefined>): RecordShape {
  let shape = shapes.get(signature);
  if (shape === undefined) {
    const slots = SLOTS.filter((slot) => fields[slot.index] !== undefined);
    const codes = slots.map((slot) => slot.code);
    shape = { make: makeRecordFactory(codes), codes, slots: slots.map((slot) => slot.index) };
    if (shapes.size >= SHAPE_CACHE_LIMIT) shapes.clear();
    shapes.set(signature, shape);
  }
  return shape;
}

/** The highest catalogue code: the by-code table has one element per code up to it. */
const TOP_CODE = SLOTS.reduce((top, slot) => Math.max(top, slot.code), 0);
/** Each slot's code, in slot order (which is ascending code order, see slot-entry.ts). */
const SLOT_CODE: readonly number[] = SLOTS.map((slot) => slot.code);

/**
 * The fields set so far in the current entry, by slot and by code. Each slot is set at most once per
 * entry. `byCode` is a dense array of TOP_CODE + 1 elements made once per reader, so `byCode[1020]` is an
 * element load; it is for reading only (a sparse record in disguise: never serialise it).
 */
export class EntryFields {
  readonly bySlot: Array<FieField | undefined> = SLOTS.map(() => undefined);
  readonly byCode: Array<FieField | undefined> = new Array<FieField | undefined>(TOP_CODE + 1).fill(undefined);
  private low = 0;
  private high = 0;
  /** The last shape used: consecutive entries often have the same key set. */
  private shape: RecordShape | null = null;
  private signature = -1;

  set(index: number, field: FieField): void {
    this.bySlot[index] = field;
    this.byCode[SLOT_CODE[index] as number] = field;
    if (index < LOW_BITS) this.low |= 1 << index;
    else this.high |= 1 << (index - LOW_BITS);
  }

  /** The code-keyed record of the fields set (a copy of its key set's literal, values stored over the zeros). */
  record(): FieFields {
    const signature = this.high * HIGH_UNIT + this.low;
    let shape = this.shape;
    if (shape === null || signature !== this.signature) {
      shape = shapeOf(signature, this.bySlot);
      this.shape = shape;
      this.signature = signature;
    }
    const record = shape.make();
    const { codes, slots } = shape;
    const bySlot = this.bySlot;
    for (let k = 0; k < slots.length; k += 1) record[codes[k] as number] = bySlot[slots[k] as number] as FieField;
    return record;
  }

  /** Forgets the fields set: a clean slate for the next entry. */
  clear(): void {
    const { bySlot, byCode } = this;
    for (let index = 0; index < bySlot.length; index += 1) {
      if (bySlot[index] === undefined) continue;
      bySlot[index] = undefined;
      byCode[SLOT_CODE[index] as number] = undefined;
    }
    this.low = 0;
    this.high = 0;
  }
}
