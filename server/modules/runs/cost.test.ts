import { describe, expect, it } from 'vitest';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { costOf, estimateUnits, NO_UPLOAD_COUNTS } from './cost.ts';

const flow = (usageMeasureUnit: string) => ({ usageMeasureUnit }) as FlowDefinition;

describe('estimateUnits', () => {
  it('counts a row flow in blocks of its workbooks’ data rows, and one unit without a workbook', () => {
    expect(estimateUnits(flow('bloque de 100 filas|bloques de 100 filas'), { rows: 250, entries: 250 })).toBe(3);
    expect(estimateUnits(flow('fila|filas'), { rows: 0, entries: 0 })).toBe(0);
    expect(estimateUnits(flow('fila|filas'), NO_UPLOAD_COUNTS)).toBe(1);
  });

  it('counts a FIE flow in the entries (partes) its uploads hold, and one unit without any', () => {
    expect(estimateUnits(flow('parte|partes'), { rows: null, entries: 7 })).toBe(7);
    expect(estimateUnits(flow('10 partes'), { rows: 3, entries: 21 })).toBe(3);
    expect(estimateUnits(flow('parte|partes'), NO_UPLOAD_COUNTS)).toBe(1);
  });

  it('is one unit for any other measure', () => {
    expect(estimateUnits(flow('justificante|justificantes'), { rows: 500, entries: 40 })).toBe(1);
  });
});

describe('costOf', () => {
  it('multiplies without binary-fraction noise', () => {
    expect(costOf(3, 0.1)).toBe(0.3);
  });
});
