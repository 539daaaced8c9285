import { describe, expect, it } from 'vitest';
import synthetic from './fixtures/synthetic-fie4.txt?raw';
import { decodeFie } from './decode.ts';
import { FIE_CATALOGUE, FIELD_BY_CODE } from './layout.ts';

describe('the synthetic FIE4 example (research §8)', () => {
  const document = decodeFie(synthetic);
  const [first, second] = document.entries;

  it('is a FIE4 with two entries and nothing odd', () => {
    expect(document).toMatchObject({ format: 'text', version: 'FIE4', ignored: false, registryDate: '15/01/2025' });
    expect(document.entries).toHaveLength(2);
    expect(document.diagnostics).toEqual([]);
  });

  it('reads every field of the first entry at its sourced offset', () => {
    const read = Object.fromEntries(Object.entries(first?.fields ?? {}).map(([code, field]) => [code, [field.value, field.normalizedValue]]));
    expect(read).toEqual({
      100: ['20250115', '2025-01-15'],
      310: ['28123456789', '28123456789'],
      320: ['0111', 'General'],
      330: ['28', 'Madrid'],
      360: ['9', 'C.I.F.'],
      370: ['724', '724'],
      380: ['00000B12345678', 'B12345678'],
      520: ['2', 'Colectivo'],
      530: ['EJEMPLO SINTETICO SL', 'EJEMPLO SINTETICO SL'],
      610: ['281234567890', '281234567890'],
      620: ['28', 'Madrid'],
      650: ['1', 'D.N.I./N.I.F.'],
      660: ['724', '724'],
      670: ['0000012345678Z', '12345678Z'],
      820: ['GARCIA', 'GARCIA'],
      830: ['LOPEZ', 'LOPEZ'],
      840: ['MARIA', 'MARIA'],
      910: ['20200301', '2020-03-01'],
      1020: ['20250110', '2025-01-10'],
      1030: ['N', false],
      1040: ['20250110', '2025-01-10'],
      1060: ['0000', 0],
      1090: ['1', 'Enfermedad común'],
      1100: ['S', 'Se acredita carencia'],
      1110: ['2', '2'],
      1120: ['0015', 15],
      1170: ['N', false],
      1520: ['20250117', '2025-01-17'],
      1530: ['01', 1],
    });
  });

  it('labels each field and names its section and ref', () => {
    expect(first?.fields[1020]).toEqual({ label: 'Fecha de baja', value: '20250110', normalizedValue: '2025-01-10', section: 'DIT', ref: 'leaveStartDate' });
    expect(first?.fields[530]?.section).toBe('RZS');
  });

  it('derives the first entry: an open leave with a confirmation part', () => {
    expect(first).toMatchObject({ fullname: 'MARIA GARCIA LOPEZ', type: 'cit', isAlta: false, isBaja: false, duration: null, shortDuration: false, isCanceled: false, nif: '12345678Z', idType: 'DNI' });
  });

  it('reads the second entry: a relapse of a work accident, discharged by cure', () => {
    const values = Object.fromEntries(Object.entries(second?.fields ?? {}).map(([code, field]) => [code, field.normalizedValue]));
    expect(values).toMatchObject({ 670: 'X1234567L', 1020: '2025-01-05', 1030: true, 1040: '2024-10-01', 1050: '2024-10-01', 1060: 12, 1090: 'Accidente de trabajo', 1150: '2025-01-12', 1160: 'Curación' });
    expect(second?.fields[1100]).toBeUndefined(); // blank carencia
    expect(second).toMatchObject({ type: 'alta', isAlta: true, duration: 8, idType: 'NIE', fullname: 'JUAN PEREZ RUIZ' });
  });
});

describe('the field catalogue', () => {
  it('has one row per code, inside its segment line', () => {
    expect(FIELD_BY_CODE.size).toBe(FIE_CATALOGUE.length);
    for (const def of FIE_CATALOGUE) {
      expect(def.offset).toBeGreaterThanOrEqual(3);
      expect(def.length).toBeGreaterThan(0);
    }
  });

  it('marks as provisional exactly the fields no source confirms', () => {
    const provisional = FIE_CATALOGUE.filter((def) => def.provisional).map((def) => def.code);
    expect(provisional).toEqual([100, 910, 920, 1171, 1172, 1173, 1174, 1610, 1810, 1910, 2110]);
  });

  it('places the provisional DIT additions right after the cancelled flag', () => {
    expect([1170, 1171, 1172, 1173, 1174].map((code) => FIELD_BY_CODE.get(code)?.offset)).toEqual([72, 73, 74, 75, 76]);
  });
});
