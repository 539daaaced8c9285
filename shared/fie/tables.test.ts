import { describe, expect, it } from 'vitest';
import { lookup, TABLE_NOT_FOUND, tableEntries } from './tables.ts';

describe('lookup', () => {
  it('has the 52 provinces, with or without the leading zero', () => {
    expect(tableEntries('provinces')).toHaveLength(52);
    expect(lookup('provinces', '08')).toBe('Barcelona');
    expect(lookup('provinces', '8')).toBe('Barcelona');
    expect(lookup('provinces', '52')).toBe('Melilla');
  });

  it("shows '[[ Tabla no encontrada ]]' for a missing code", () => {
    expect(TABLE_NOT_FOUND).toBe('[[ Tabla no encontrada ]]');
    expect(lookup('provinces', '53')).toBe(TABLE_NOT_FOUND);
    expect(lookup('regimes', '9999')).toBe(TABLE_NOT_FOUND);
    expect(lookup('contingencies', 'toString')).toBe(TABLE_NOT_FOUND);
  });

  it.each([
    ['regimes', '111', 'General'],
    ['personIdTypes', '6', 'N.I.E.'],
    ['employerIdTypes', '9', 'C.I.F.'],
    ['contingencies', '4', 'Enfermedad profesional'],
    ['carencia', 'p', 'Pendiente de la Dirección Provincial del INSS'],
    ['altaCauses', '1', 'Curación'],
    ['entities', '61', 'Fremap'],
  ] as const)('%s %s is %s', (table, code, label) => {
    expect(lookup(table, code)).toBe(label);
  });
});
