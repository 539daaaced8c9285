import { describe, expect, it } from 'vitest';
import { detectColumnHeaders, headerKey } from './columns.ts';

const columns = [
  { key: 'nif', headerHints: ['nif', 'dni', 'documento'] },
  { key: 'iban', headerHints: ['iban', 'cuenta'] },
  { key: 'ccc', headerHints: ['ccc', 'codigo cuenta cotizacion'] },
];

describe('detectColumnHeaders', () => {
  it('compares without case, accents or punctuation', () => {
    expect(headerKey('  Código-Cuenta  Cotización ')).toBe('codigo cuenta cotizacion');
    expect(detectColumnHeaders(['N.I.F.', 'IBAN'], columns)).toEqual({ nif: 'N.I.F.', iban: 'IBAN', ccc: null });
    expect(headerKey('D.N.I. / N.I.E.')).toBe('dni nie');
    expect(headerKey('N.º Afiliación')).toBe(headerKey('Número afiliación'));
    expect(detectColumnHeaders(['NIF trabajador'], columns)).toMatchObject({ nif: 'NIF trabajador' });
  });

  it('settles the strongest match first: a whole-header CCC is not taken by a looser cuenta hint', () => {
    expect(detectColumnHeaders(['Código cuenta cotización', 'Cuenta bancaria'], columns))
      .toEqual({ nif: null, iban: 'Cuenta bancaria', ccc: 'Código cuenta cotización' });
  });

  it("a 'Tipo de ...' header is not the number its last word names", () => {
    expect(detectColumnHeaders(['Tipo de documento', 'Documento'], columns)).toMatchObject({ nif: 'Documento' });
    expect(detectColumnHeaders(['Tipo de documento'], columns)).toMatchObject({ nif: null });
  });

  it("a header joining two things with 'y' matches only whole", () => {
    expect(detectColumnHeaders(['Apellidos y nombre'], [{ key: 'nombre', headerHints: ['nombre'] }])).toEqual({ nombre: null });
    expect(detectColumnHeaders(['Apellidos y nombre'], [{ key: 'ayn', headerHints: ['apellidos y nombre'] }])).toEqual({ ayn: 'Apellidos y nombre' });
  });

  it('gives each header to one column only', () => {
    expect(detectColumnHeaders(['Cuenta'], [{ key: 'a', headerHints: ['cuenta'] }, { key: 'b', headerHints: ['cuenta'] }]))
      .toEqual({ a: 'Cuenta', b: null });
  });
});
