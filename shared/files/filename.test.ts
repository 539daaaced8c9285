import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_FILENAME_LENGTH, normalizeFilename } from './filename.ts';

describe('normalizeFilename', () => {
  it('removes leading whitespace, forbidden characters and trailing dots or spaces', () => {
    expect(normalizeFilename('  informe: "altas" <marzo>?.pdf')).toBe('informe altas marzo.pdf');
    expect(normalizeFilename('a/b\\c|d*e.txt')).toBe('abcde.txt');
    expect(normalizeFilename('borrador. . ')).toBe('borrador');
    expect(normalizeFilename('  ')).toBe('');
  });

  it('removes control characters (C0, DEL, C1) and bidirectional controls', () => {
    expect(normalizeFilename('nómina\u0000.pdf')).toBe('nómina.pdf');
    expect(normalizeFilename('factura\u202Efdp.exe')).toBe('facturafdp.exe');
    expect(normalizeFilename('\u2066a\u2067b\u2068c\u2069\u200Ed\u200Fe\u061Cf\u202A\u202B\u202C\u202D.txt')).toBe('abcdef.txt');
    expect(normalizeFilename('línea\r\nnueva\t\u001B[31m\u007F\u0085\u009F.csv')).toBe('líneanueva[31m.csv');
    expect(normalizeFilename('\u202E  informe.pdf')).toBe('informe.pdf');
  });

  it('keeps inner spaces and dots', () => {
    expect(normalizeFilename('Nómina 03.2025 final.xlsx')).toBe('Nómina 03.2025 final.xlsx');
  });

  it('shortens long names to 255 keeping the extension', () => {
    const result = normalizeFilename(`${'a'.repeat(300)}.pdf`);
    expect(result).toHaveLength(255);
    expect(result.endsWith('aaa.pdf')).toBe(true);
  });

  it('does not leave half an emoji at the cut', () => {
    const result = normalizeFilename('😀'.repeat(200));
    expect(result.length).toBeLessThanOrEqual(MAX_FILENAME_LENGTH);
    expect(/[\uD800-\uDBFF]$/.test(result)).toBe(false);
  });

  it('is idempotent and never longer than 255 (property)', () => {
    const names = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: fc.constantFrom('a', '.', ' ', '<', '?', '\t', '😀', 'ñ'), maxLength: 600 }),
    );
    fc.assert(fc.property(names, (name) => {
      const once = normalizeFilename(name);
      return once.length <= MAX_FILENAME_LENGTH && normalizeFilename(once) === once;
    }), { numRuns: 500 });
  });
});
