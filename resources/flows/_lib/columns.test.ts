import { describe, expect, it } from 'vitest';
import type { MappedColumn } from '#shared/flows/definition.ts';
import { detectColumns, resolveColumns } from './columns.ts';

const columns: MappedColumn[] = [
  { key: 'nif', label: 'NIF', headerHints: ['nif', 'dni', 'documento'] },
  { key: 'iban', label: 'IBAN', headerHints: ['iban', 'cuenta'] },
  { key: 'ccc', label: 'CCC', headerHints: ['ccc', 'codigo cuenta cotizacion'] },
];

const keysByHeader = (headers: string[]) => detectColumns(headers, columns).map((found) => [found.header, found.column.key]);

describe('detectColumns', () => {
  it('gives a header to the column whose hint fits it best, whatever the order', () => {
    expect(keysByHeader(['Cuenta', 'Código Cuenta Cotización'])).toEqual([['Cuenta', 'iban'], ['Código Cuenta Cotización', 'ccc']]);
    expect(keysByHeader(['Código cuenta cotización', 'Nombre'])).toEqual([['Código cuenta cotización', 'ccc']]);
  });

  it('does not take a document type column for the document number', () => {
    expect(keysByHeader(['Tipo de documento', 'Nº documento'])).toEqual([['Nº documento', 'nif']]);
    expect(keysByHeader(['Tipo documento'])).toEqual([]);
    const withType: MappedColumn[] = [...columns, { key: 'type', label: 'Tipo', headerHints: ['tipo de documento'] }];
    expect(detectColumns(['Tipo de documento', 'Documento'], withType).map((found) => found.column.key)).toEqual(['type', 'nif']);
  });

  it('matches whole words only', () => {
    expect(keysByHeader(['Dnis', 'Ibanez'])).toEqual([]);
    expect(keysByHeader(['DNI del trabajador'])).toEqual([['DNI del trabajador', 'nif']]);
  });
});

describe('resolveColumns', () => {
  const headers = ['Nombre', 'DNI', 'IBAN'];

  it('detects by header when nothing is mapped (no value, empty object, all null)', () => {
    for (const mapping of [undefined, {}, { nif: null, iban: null }, 'not a mapping']) {
      expect(resolveColumns(headers, columns, mapping)).toMatchObject({ detected: true, found: [{ index: 1 }, { index: 2 }] });
    }
  });

  it('uses only what the user mapped and reports a header the sheet lacks', () => {
    const resolution = resolveColumns(headers, columns, { nif: 'Nombre', iban: null, ccc: 'CCC empresa' });
    expect(resolution.detected).toBe(false);
    expect(resolution.found.map((found) => [found.column.key, found.index])).toEqual([['nif', 0]]);
    expect(resolution.notInSheet).toEqual([{ column: columns[2], header: 'CCC empresa' }]);
  });
});
