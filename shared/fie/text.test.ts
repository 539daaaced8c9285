import { describe, expect, it } from 'vitest';
import synthetic from './fixtures/synthetic-fie4.txt?raw';
import { decodeFie } from './decode.ts';
import { encodeFieFile, encodeHeader, encodeSegment } from './encode.ts';
import { decodeFieText } from './text.ts';

const ETI = encodeHeader('ETI', 'FIE4', '20250115');
const ETF = encodeHeader('ETF', 'FIE4', '20250115');
const EMP = 'EMP011128123456789972400000B12345678';
const TRA = 'TRA28123456789017240000012345678Z';

function file(...lines: string[]): string {
  return [ETI, ...lines, ETF].join('\n');
}

describe('decodeFieText: header and trailer', () => {
  it('ignores a file that does not start with ETI', () => {
    const document = decodeFieText(`${EMP}\n${TRA}\n${ETF}\n`);
    expect(document).toMatchObject({ ignored: true, version: null, entries: [] });
    expect(document.reason).toMatch(/cabecera ETI/);
  });

  it('ignores an ETI of another version, saying which', () => {
    const document = decodeFieText(synthetic.replace('ETIFIE40', 'ETIFIE20'));
    expect(document).toMatchObject({ ignored: true, reason: 'Versión de FIE no admitida: FIE2 (se admiten FIE3 y FIE4)' });
  });

  it('ignores an ETI that names no FIE version (an AFI header, say)', () => {
    const document = decodeFieText('ETIAFI96WSxxx00224086000     202507291154LQR5JQOGAFIN 00000000000000\n');
    expect(document.ignored).toBe(true);
    expect(document.reason).toMatch(/no indica la versión/);
  });

  it('accepts FIE3 and skips leading blank lines and a BOM', () => {
    const document = decodeFieText(`\uFEFF\n\n${file(EMP, TRA).replace('FIE4', 'FIE3')}`);
    expect(document).toMatchObject({ ignored: false, version: 'FIE3' });
    expect(document.entries).toHaveLength(1);
  });

  it('stops at the ETF trailer and reports what came after', () => {
    const document = decodeFieText(`${file(EMP, TRA)}\n${EMP}\nTRA280987654321672400000X1234567L\n`);
    expect(document.entries.map((entry) => entry.nif)).toEqual(['12345678Z']);
    expect(document.diagnostics).toEqual([{ kind: 'after-trailer', line: 5, detail: '2 líneas después de ETF no se han leído' }]);
  });

  it('decodes a file without a trailer, noting it is missing', () => {
    const document = decodeFieText([ETI, EMP, TRA].join('\n'));
    expect(document.entries).toHaveLength(1);
    expect(document.diagnostics.map((diagnostic) => diagnostic.kind)).toEqual(['missing-trailer']);
  });
});

describe('decodeFieText: lines', () => {
  it('reads CRLF and LF files alike', () => {
    const lf = decodeFieText(synthetic.replace(/\r\n/g, '\n'));
    const crlf = decodeFieText(synthetic.replace(/\r?\n/g, '\r\n'));
    expect(crlf).toEqual(lf);
    expect(crlf.entries[0]?.fields[530]?.value).toBe('EJEMPLO SINTETICO SL');
  });

  it('reads a short line as if padded with spaces', () => {
    const document = decodeFieText(file(EMP, TRA, 'DIT   20250110N'));
    const fields = document.entries[0]?.fields ?? {};
    expect(fields[1020]?.normalizedValue).toBe('2025-01-10');
    expect(fields[1030]?.normalizedValue).toBe(false);
    expect(fields[1090]).toBeUndefined();
    expect(document.diagnostics).toEqual([]);
  });

  it('keeps the surplus of a long line for diagnostics', () => {
    const document = decodeFieText(file(EMP, `${TRA}EXTRA`));
    expect(document.entries[0]?.nif).toBe('12345678Z');
    expect(document.diagnostics).toEqual([{ kind: 'long-line', line: 3, detail: "TRA más largo de lo previsto; texto sobrante: 'EXTRA'" }]);
  });

  it('keeps unknown segments with the entry, without failing', () => {
    const document = decodeFieText(file(EMP, 'IT22025010501', TRA, 'OIT20250120'));
    expect(document.entries[0]?.extraSegments).toEqual([
      { line: 3, tag: 'IT2', text: 'IT22025010501' },
      { line: 5, tag: 'OIT', text: 'OIT20250120' },
    ]);
    expect(document.entries[0]?.nif).toBe('12345678Z');
  });

  it('keeps the first of a repeated segment and the repeat as an extra line', () => {
    const document = decodeFieText(file(EMP, TRA, 'CIT2025011701', 'CIT2025012402'));
    const entry = document.entries[0];
    expect(entry?.fields[1530]?.normalizedValue).toBe(1);
    expect(entry?.extraSegments).toEqual([{ line: 5, tag: 'CIT', text: 'CIT2025012402' }]);
    expect(document.diagnostics.map((diagnostic) => diagnostic.kind)).toEqual(['repeated-segment']);
  });

  it('reports lines before the first EMP', () => {
    const document = decodeFieText(file(TRA, EMP));
    expect(document.entries).toHaveLength(1);
    expect(document.diagnostics[0]).toMatchObject({ kind: 'orphan-line', line: 2 });
  });

  it('starts one entry per EMP block', () => {
    expect(decodeFieText(file(EMP, TRA, EMP, EMP, TRA)).entries).toHaveLength(3);
  });
});

describe('decodeFieText: dates and empty values', () => {
  it('treats 00000000 and blanks as absent and reports an impossible date', () => {
    const document = decodeFieText(file(EMP, encodeSegment('DIT', { 1020: '20250231', 1040: '00000000' }) ?? ''));
    const fields = document.entries[0]?.fields ?? {};
    expect(fields[1020]).toMatchObject({ value: '20250231', normalizedValue: null });
    expect(fields[1040]).toBeUndefined();
    expect(fields[1010]).toBeUndefined();
    expect(document.diagnostics).toEqual([{ kind: 'invalid-value', line: 3, detail: "Valor no válido en 1020 (Fecha de baja): '20250231'" }]);
  });

  it('takes the registration date from the ETI header, even without entries', () => {
    const early = decodeFieText(encodeFieFile({ date: '20250101', entries: [{ 670: '12345678Z' }] }));
    expect(early.registryDate).toBe('01/01/2025');
    const noEntries = decodeFieText(encodeFieFile({ date: '20250102', entries: [] }));
    expect(noEntries.registryDate).toBe('02/01/2025');
  });
});

describe('decodeFie on bytes', () => {
  it('decodes Latin-1 bytes, Ñ and accents included', () => {
    const text = file(EMP, encodeSegment('AYN', { 820: 'NUÑEZ', 830: 'PEÑA', 840: 'JOSÉ' }) ?? '');
    const bytes = Uint8Array.from(text, (character) => character.charCodeAt(0));
    expect(bytes).toContain(0xd1);
    expect(decodeFie(bytes).entries[0]?.fullname).toBe('JOSÉ NUÑEZ PEÑA');
  });
});
