import { digitsValue, isJsSpace } from './chars.ts';
import { daysFromCivil, isFieDateNumber } from './dates.ts';
import { normalizeNifFast } from './nif.ts';
import { Kind, type Slot } from './segment-plan.ts';
import { lookupTrimmed } from './tables.ts';
import type { FieField, FieValue, LookupTableName } from './types.ts';

/*
 * One field of a text line read into a FieField: what the field-by-field decoder's readField and
 * normalize did (testing/reference-text.ts), on char codes and without Date or regexes where a file's
 * ordinary values are concerned.
 */

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
export function isoDayNumber(iso: string): number {
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
export function readField(slot: Slot, text: string, start: number, end: number): FieField | null {
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
