import { describe, expect, it } from 'vitest';
import { entriesPerUnit, rowsPerUnit } from './usage.ts';

describe('rowsPerUnit', () => {
  it('reads rows per unit from the unit name', () => {
    expect(rowsPerUnit('fila|filas')).toBe(1);
    expect(rowsPerUnit('100 filas')).toBe(100);
    expect(rowsPerUnit('bloque de 100 filas|bloques de 100 filas')).toBe(100);
    expect(rowsPerUnit('1.000 filas')).toBe(1000);
  });

  it('is null for units that are not rows', () => {
    expect(rowsPerUnit('entrada|entradas')).toBeNull();
    expect(rowsPerUnit('archivo')).toBeNull();
    expect(rowsPerUnit('perfiles')).toBeNull();
  });
});

describe('entriesPerUnit', () => {
  it('reads FIE entries (partes) per unit from the unit name', () => {
    expect(entriesPerUnit('parte|partes')).toBe(1);
    expect(entriesPerUnit('10 partes')).toBe(10);
    expect(entriesPerUnit('bloque de 1.000 partes|bloques de 1.000 partes')).toBe(1000);
  });

  it('is null for units that are not partes', () => {
    expect(entriesPerUnit('fila|filas')).toBeNull();
    expect(entriesPerUnit('justificante|justificantes')).toBeNull();
    expect(entriesPerUnit('contrapartes')).toBeNull();
  });
});
