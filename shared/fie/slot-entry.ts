import type { EntryFields } from './entry-fields.ts';
import { SLOTS } from './segment-plan.ts';
import type { FieEntry, FieEntryFacts, FieEntryType, FieField, FieFields, FieLine, IdType } from './types.ts';

/*
 * The slot-based view of an entry, for the streaming consumers (issue 42, 3).
 *
 * The code-keyed record (FieFields, `{ 310: …, 1020: … }`) is the stored and API form of an entry's
 * fields, but V8 keeps such integer-keyed objects as dictionaries: building one per entry was the largest
 * cost of decoding, and reading it back (Object.entries, JSON) the largest cost of storing an entry. A
 * consumer that reads an entry and drops it (the A3 robot, the FIE module's import, the CLI) reads it
 * through this view instead: the line reader's fields by catalogue slot and by code, in arrays it fills
 * and clears again for every entry. The record is built only where an entry is serialised, by record()
 * or toEntry().
 */

/** Fields by code, for reading: a FieFields record is one, and so is a slot entry's by-code table. */
export type FieFieldLookup = { readonly [code: number]: FieField | undefined };

/**
 * An entry as the streaming consumers read it: its facts, its fields by code, its extra lines. A FieEntry
 * is one (spreadsheets still give those), and so is the text reader's FieSlotEntry.
 */
export interface FieEntryRead extends FieEntryFacts {
  readonly fields: FieFieldLookup;
  readonly extraSegments: readonly FieLine[];
}

/** Each slot's catalogue code, in slot order. */
export const SLOT_CODES: readonly number[] = SLOTS.map((slot) => slot.code);

// Slot order is ascending code order, which is the order the record's keys enumerate in: a view walked
// by slot serialises exactly as its record does.
for (let index = 1; index < SLOT_CODES.length; index += 1) {
  if ((SLOT_CODES[index] as number) <= (SLOT_CODES[index - 1] as number)) throw new Error('FIE: el catálogo debe ir en orden de código');
}

/**
 * The entry the text reader has just closed, seen through its slots. One object per reader, filled again
 * for each entry: it is valid during the sink's call only. Whatever must outlive the call is taken from it
 * then (a row, facts, a JSON line) or copied with toEntry().
 */
export class FieSlotEntry implements FieEntryRead {
  fullname = '';
  type: FieEntryType = 'baja';
  isAlta = false;
  isBaja = true;
  duration: number | null = null;
  shortDuration = false;
  isCanceled = false;
  nif: string | null = null;
  idType: IdType | null = null;
  extraSegments: FieLine[] = [];

  constructor(private readonly store: EntryFields) {}

  /** The fields by code (fields[1020]): for reading only, it is not a record (see record()). */
  get fields(): FieFieldLookup {
    return this.store.byCode;
  }

  /** The fields by slot (SLOTS order, ascending code; SLOT_CODES[i] is slot i's code); undefined where absent. */
  get slots(): ReadonlyArray<FieField | undefined> {
    return this.store.bySlot;
  }

  /** The code-keyed record of the fields: the stored and API form, built on each call. */
  record(): FieFields {
    return this.store.record();
  }

  /** The entry as decodeFie gives it, its own copy (the record built, the extra lines kept). */
  toEntry(): FieEntry {
    return {
      fields: this.record(),
      fullname: this.fullname,
      type: this.type,
      isAlta: this.isAlta,
      isBaja: this.isBaja,
      duration: this.duration,
      shortDuration: this.shortDuration,
      isCanceled: this.isCanceled,
      nif: this.nif,
      idType: this.idType,
      extraSegments: this.extraSegments,
    };
  }
}

/** Calls `visit` for each field of the entry, in ascending code order, whichever form it comes in. */
export function forEachField(entry: FieEntryRead, visit: (code: number, field: FieField) => void): void {
  if (entry instanceof FieSlotEntry) {
    const slots = entry.slots;
    for (let index = 0; index < slots.length; index += 1) {
      const field = slots[index];
      if (field !== undefined) visit(SLOT_CODES[index] as number, field);
    }
    return;
  }
  // A record's integer keys enumerate in ascending order.
  for (const [code, field] of Object.entries(entry.fields as FieFields)) visit(Number(code), field);
}

/** The entry's code-keyed record: built for a slot entry, the entry's own for a FieEntry. */
export function fieldsRecord(entry: FieEntryRead): FieFields {
  return entry instanceof FieSlotEntry ? entry.record() : (entry.fields as FieFields);
}

/**
 * Whether every field of the entry is what readField (fields.ts) reads from its text, so that it can be
 * stored as its text alone without reading it again: true of the text reader's entries (it reads exactly
 * as the field-by-field decoder does; its tests check it against that oracle), unknown of a FieEntry.
 */
export function readsBackFromText(entry: FieEntryRead): boolean {
  return entry instanceof FieSlotEntry;
}
