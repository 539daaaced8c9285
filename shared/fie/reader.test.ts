import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import synthetic from './fixtures/synthetic-fie4.txt?raw';
import { isJsSpace } from './chars.ts';
import { fieDateNumber, parseFieDate } from './dates.ts';
import { encodeFieFile, encodeHeader, type FieRawValues } from './encode.ts';
import { FIE_CATALOGUE } from './layout.ts';
import { idTypeOf, normalizeNif, normalizeNifFast } from './nif.ts';
import { lookup, lookupTrimmed, tableEntries } from './tables.ts';
import { referenceDecodeFieText } from './testing/reference-text.ts';
import { decodeFieText } from './text.ts';
import { inferDocumentIdType } from '../validation/identifiers.ts';
import type { LookupTableName } from './types.ts';

/** Same document, and the same JSON text: key order (entries, fields, FieField) included. */
function expectSameAsReference(text: string): void {
  const fast = decodeFieText(text);
  const reference = referenceDecodeFieText(text);
  expect(fast).toEqual(reference);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(reference));
}

const TAGS = ['ETI', 'ETF', 'EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'IT2', 'ITD', 'OIT', 'CIT', 'DIP', 'JUB', 'DOP', 'NAC', 'XYZ', 'EM', ''];
/** Characters that matter to the reader: digits, S/N, capitals, every kind of JS white space, Latin-1 and beyond. */
const ALPHABET = [...'0000123456789SNXYZABCÑÁÉ-./ ', ' ', ' ', '\t', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2028', '\u202f', '\u3000', '\ufeff', '\u0085', '\u180e', '\u00ff', 'ß', 'ı', '€', '😀'];
const char = fc.constantFrom(...ALPHABET);
const realDate = fc.date({ min: new Date('1899-12-25T00:00:00Z'), max: new Date('2100-03-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10).replace(/-/g, ''));
const fieldish = fc.oneof(fc.string({ unit: char, maxLength: 16 }), realDate, fc.constantFrom('00000000', '20250229', '20240229', '19000101', '18991231', '0000', '00000012345678Z', '0000000X1234567L'));
const segmentLine = fc.tuple(fc.constantFrom(...TAGS), fc.array(fieldish, { maxLength: 8 })).map(([tag, parts]) => tag + parts.join(''));
const newline = fc.constantFrom('\n', '\r\n', '\r', '\r\r\n');

describe('the line reader decodes exactly as the field-by-field decoder did', () => {
  it('on the synthetic FIE4, LF and CRLF, with a BOM', () => {
    expectSameAsReference(synthetic);
    expectSameAsReference(synthetic.replace(/\r?\n/g, '\r\n'));
    expectSameAsReference(`\uFEFF\n\n${synthetic}`);
  });

  it('on random text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (text) => expectSameAsReference(text)), { numRuns: 300 });
  });

  it('on random segment lines under a valid header, any line ends, blank lines and lines after ETF', () => {
    const file = fc
      .tuple(fc.array(fc.oneof(segmentLine, fc.constantFrom('', '   ', '\t')), { maxLength: 40 }), newline, fc.constantFrom('FIE4', 'FIE3', 'FIE5', 'AFI'), fc.oneof(realDate, fieldish))
      .map(([lines, end, version, date]) => [encodeHeader('ETI', 'FIE4', '20250115').replace('FIE4', version).replace('20250115', date.padEnd(8).slice(0, 8)), ...lines].join(end));
    fc.assert(fc.property(file, (text) => expectSameAsReference(text)), { numRuns: 1500 });
  });

  it('on generated entries whose fields hold odd values', () => {
    const defs = FIE_CATALOGUE.filter((def) => def.segment !== 'ETI');
    const values = fc.dictionary(fc.constantFrom(...defs.map((def) => String(def.code))), fieldish, { maxKeys: 30 });
    const file = fc.tuple(fc.array(values, { minLength: 1, maxLength: 6 }), fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'));
    fc.assert(
      fc.property(file, ([entries, end]) => expectSameAsReference(encodeFieFile({ entries: entries as FieRawValues[], newline: end }))),
      { numRuns: 600 },
    );
  });
});

describe('the reader helpers agree with the regexes they replace', () => {
  it('isJsSpace is \\s (and trim) for every UTF-16 code unit', () => {
    for (let code = 0; code <= 0xffff; code += 1) {
      const character = String.fromCharCode(code);
      expect(isJsSpace(code), `U+${code.toString(16)}`).toBe(/\s/.test(character));
      expect(isJsSpace(code), `U+${code.toString(16)}`).toBe(character.trim() === '');
    }
  });

  it('fieDateNumber accepts exactly the dates parseFieDate did (regex + Date round trip)', () => {
    const oldParse = (text: string) => {
      const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
      if (!match) return null;
      const [, year, month, day] = match;
      const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
      const valid = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
      return valid && Number(year) >= 1900 ? `${year}-${month}-${day}` : null;
    };
    const samples = ['00000000', '19000229', '20000229', '21000229', '20240229', '20250229', '20251231', '20251232', '20251300', '20250001', '18991231', '19000101', '99991231', '0099123', '2025011a', '２０２５0101', ' 20250101'];
    for (let year = 1896; year <= 2104; year += 1) {
      for (let month = 0; month <= 13; month += 1) for (const day of [0, 1, 28, 29, 30, 31, 32]) samples.push(`${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`);
    }
    for (const text of samples) {
      expect(parseFieDate(text), text).toBe(oldParse(text));
      expect(fieDateNumber(text, 0, text.length) >= 0, text).toBe(oldParse(text) !== null);
    }
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'0123456789 x'), maxLength: 10 }), (text) => {
      expect(parseFieDate(text)).toBe(oldParse(text));
    }), { numRuns: 2000 });
  });

  it('normalizeNifFast and idTypeOf agree with normalizeNif and inferDocumentIdType', () => {
    const nifish = fc.string({ unit: fc.constantFrom(...'000123456789XYZABLTabz -./ñÑß'), maxLength: 16 });
    fc.assert(
      fc.property(nifish, (raw) => {
        const text = raw.trim();
        expect(normalizeNifFast(text)).toBe(normalizeNif(text));
        expect(idTypeOf(text)).toBe(inferDocumentIdType(text));
      }),
      { numRuns: 3000 },
    );
    for (const text of ['0000012345678Z', '00000001234567Z', '0000000X1234567L', '000000AB123456', '0000000000000T', '000000000000000', '12345678Z', 'X1234567L', 'AB123456']) {
      expect(normalizeNifFast(text), text).toBe(normalizeNif(text));
      expect(idTypeOf(normalizeNifFast(text)), text).toBe(inferDocumentIdType(normalizeNif(text)));
    }
  });

  it('lookupTrimmed agrees with lookup on every table', () => {
    const tables: LookupTableName[] = ['provinces', 'regimes', 'personIdTypes', 'employerIdTypes', 'employerTypes', 'contingencies', 'carencia', 'altaCauses', 'entities'];
    const codes = fc.string({ unit: fc.constantFrom(...'0123456789SNPLMsnpß ñ'), minLength: 1, maxLength: 5 }).map((text) => text.trim()).filter((text) => text !== '');
    for (const table of tables) {
      for (const [code] of tableEntries(table)) {
        expect(lookupTrimmed(table, code)).toBe(lookup(table, code));
        expect(lookupTrimmed(table, code.replace(/^0+/, '') || code)).toBe(lookup(table, code.replace(/^0+/, '') || code));
      }
      fc.assert(fc.property(codes, (code) => {
        expect(lookupTrimmed(table, code)).toBe(lookup(table, code));
      }), { numRuns: 300 });
    }
  });
});
