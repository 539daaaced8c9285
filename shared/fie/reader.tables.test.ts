import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFie } from './decode.ts';
import { encodeFieFile, type FieRawValues } from './encode.ts';
import { FIE_CATALOGUE } from './layout.ts';
import { decodeLatin1 } from './latin1.ts';
import { latin1Text } from './latin1-text.ts';
import { referenceDecodeFieText } from './testing/reference-text.ts';
import { decodeFieText } from './text.ts';

/*
 * The reader keeps the fields it has read by their text once a file passes 16 entries (value-table.ts)
 * and reuses the record shape of the previous entry (entry-fields.ts). The equivalence tests of
 * reader.test.ts mostly decode smaller files; these decode files long enough for both, whose values
 * repeat: valid, invalid (reported on every line) and absent ones.
 */

function expectSameAsReference(text: string): void {
  expect(JSON.stringify(decodeFieText(text))).toBe(JSON.stringify(referenceDecodeFieText(text)));
}

/** Few values per field, so that they repeat; odd ones among them: invalid dates, counts and flags, blanks, zeros, padding. */
const VALUES = [
  '00000000', '20250115', '20250229', '20240229', '19000101', '18991231', '2025011', '2025O115', '99999999',
  '0', '00', '0000', '01', '061', '724', '0111', '1', '9', '12', '1234567',
  'S', 'N', 'X', ' S', 'N ', 'ZZ', 'Ñ', '\u00a0', '  ', '\t1',
  '00000000000000', '0000012345678Z', '0000000X1234567L', 'GARCÍA', 'DE  LA PEÑA', 'EMPRESA  1 SL',
];

const DEFS = FIE_CATALOGUE.filter((def) => def.segment !== 'ETI');
const entry = fc.dictionary(fc.constantFrom(...DEFS.map((def) => String(def.code))), fc.constantFrom(...VALUES), { maxKeys: 30 });

describe('the line reader with its value tables on', () => {
  it('decodes files of 17 to 80 entries of repeating values as the field-by-field decoder did', () => {
    const file = fc.tuple(fc.array(entry, { minLength: 17, maxLength: 80 }), fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'));
    fc.assert(
      fc.property(file, ([entries, newline]) => expectSameAsReference(encodeFieFile({ entries: entries as FieRawValues[], newline }))),
      { numRuns: 150 },
    );
  });

  it('reports an invalid value on every line it appears, not only the first', () => {
    const text = encodeFieFile({ entries: Array.from({ length: 40 }, () => ({ 1020: '20250230', 1030: 'X', 1090: '1' })) });
    const document = decodeFieText(text);
    expect(document.diagnostics.filter((diagnostic) => diagnostic.kind === 'invalid-value')).toHaveLength(80);
    expectSameAsReference(text);
  });
});

describe('latin1Text (decodeFie in Node)', () => {
  it('maps every byte to the code point of the same value, as decodeLatin1 does', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(latin1Text(bytes)).toBe(decodeLatin1(bytes));
    expect(latin1Text(bytes.subarray(200, 210))).toBe(decodeLatin1(bytes.subarray(200, 210)));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (random) => latin1Text(random) === decodeLatin1(random)));
  });

  it('gives decodeFie the same document from bytes as from text', () => {
    const text = encodeFieFile({ entries: [{ 530: 'PEÑA Y NÚÑEZ SL', 820: 'IBÁÑEZ', 1020: '20250110' }] });
    const bytes = Uint8Array.from(text, (character) => character.charCodeAt(0));
    expect(decodeFie(bytes)).toEqual(decodeFie(text));
  });
});
