import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFie } from './decode.ts';
import { encodeFieFile, encodeHeader, type FieRawValues } from './encode.ts';
import { FIE_CATALOGUE } from './layout.ts';
import { tableEntries } from './tables.ts';
import type { FieFieldDef } from './types.ts';

const TAGS = ['ETI', 'ETF', 'EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'IT2', 'ITD', 'OIT', 'CIT', 'DIP', 'JUB', 'DOP', 'NAC', 'XYZ'];

/** Lines that look like FIE segments: a real or made-up tag followed by anything. */
const segmentLine = fc.tuple(fc.constantFrom(...TAGS), fc.string({ maxLength: 90, unit: 'binary' })).map(([tag, rest]) => tag + rest);

describe('decodeFie never throws', () => {
  it('on random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (text) => void decodeFie(text)), { numRuns: 500 });
  });

  it('on random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => void decodeFie(bytes)), { numRuns: 500 });
  });

  it('on random segment lines under a valid header, with any line endings', () => {
    const file = fc.tuple(fc.array(segmentLine, { maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r')).map(
      ([lines, newline]) => [encodeHeader('ETI', 'FIE4', '20250115'), ...lines].join(newline),
    );
    fc.assert(
      fc.property(file, (text) => {
        const document = decodeFie(text);
        expect(document.ignored).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('on random bytes taken for a spreadsheet', () => {
    const zipLike = fc.uint8Array({ maxLength: 200 }).map((bytes) => Uint8Array.of(0x50, 0x4b, 0x03, 0x04, ...bytes));
    const xmlLike = fc.string({ maxLength: 200 }).map((text) => `<?xml version="1.0"?><Workbook>${text}`);
    fc.assert(fc.property(fc.oneof(zipLike, xmlLike), (input) => void decodeFie(input, { format: 'spreadsheet' })), { numRuns: 200 });
  });
});

const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const letters = fc.constantFrom(...'ABCDEFGHIJKLMNÑOPQRSTUVWXYZÁÉÍÓÚÜ');

function rawValue(def: FieFieldDef): fc.Arbitrary<string> {
  switch (def.type) {
    case 'date':
      return fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10).replace(/-/g, ''));
    case 'integer':
      return digits(def.length);
    case 'flag':
      return fc.constantFrom('S', 'N');
    case 'code':
      return def.table ? fc.constantFrom(...tableEntries(def.table).map(([code]) => code)) : digits(def.length);
    case 'text': {
      const word = fc.string({ unit: letters, minLength: 1, maxLength: 8 });
      return fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' ').slice(0, def.length).trim()).filter((text) => text !== '');
    }
    case 'nif': {
      const nif = fc.oneof(
        fc.tuple(digits(8), letters).map(([number, letter]) => number + letter),
        fc.tuple(fc.constantFrom('X', 'Y', 'Z'), digits(7), letters).map((parts) => parts.join('')),
        fc.tuple(letters, letters, digits(6)).map((parts) => parts.join('')),
      );
      return nif.filter((text) => !/^0+$/.test(text)).map((text) => text.padStart(def.length, '0'));
    }
  }
}

// 330 and 620 are the first digits of 310 and 610: generate the wider field only.
const GENERATED = FIE_CATALOGUE.filter((def) => def.segment !== 'ETI' && def.code !== 330 && def.code !== 620);

describe('a generated entry round-trips its fields', () => {
  it('encodes to text and decodes to the same values', () => {
    const entryValues = fc.record(Object.fromEntries(GENERATED.map((def) => [def.code, rawValue(def)])), { requiredKeys: [] });
    fc.assert(
      fc.property(entryValues, fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), (values: FieRawValues, newline) => {
        const bytes = Uint8Array.from(encodeFieFile({ entries: [values], newline }), (character) => character.charCodeAt(0));
        const document = decodeFie(bytes);
        expect(document.diagnostics).toEqual([]);
        const entry = document.entries[0];
        for (const [code, raw] of Object.entries(values)) {
          const field = entry?.fields[Number(code)];
          expect(field?.value, `field ${code}`).toBe(raw?.trim());
          expect(field?.normalizedValue, `field ${code}`).not.toBeNull();
        }
        if (values[310] !== undefined) expect(entry?.fields[330]?.value).toBe(values[310].slice(0, 2));
        if (values[1020] !== undefined) expect(entry?.fields[1020]?.normalizedValue).toBe(`${values[1020].slice(0, 4)}-${values[1020].slice(4, 6)}-${values[1020].slice(6)}`);
      }),
      { numRuns: 300 },
    );
  });
});
