import { describe, expect, it } from 'vitest';
import { deriveFacts } from '../fie/derive.ts';
import { readFields } from '../fie/fields.ts';
import type { FieRawValues } from '../fie/encode.ts';
import { a3IncidentCode, leaveIncidentCode } from './incident.ts';

function entry(values: FieRawValues) {
  const fields = readFields(values);
  return { fields, ...deriveFacts(fields) };
}

describe('a3IncidentCode (spec §9)', () => {
  it('gives 7 to an alta with an end date, whatever else it says', () => {
    expect(a3IncidentCode(entry({ 1020: '20250110', 1150: '20250112', 1090: '1', 1173: '1' }))).toBe(7);
  });

  it('does not give 7 to an alta whose end date is unreadable', () => {
    expect(a3IncidentCode(entry({ 1150: '20251399', 1090: '1' }))).toBe(2);
  });

  it.each([
    ['1', 45],
    ['2', 46],
    ['4', 48],
  ])('gives payment mode %s -> %i', (mode, code) => {
    expect(a3IncidentCode(entry({ 1090: '1', 1030: 'S', 1173: mode }))).toBe(code);
  });

  it('falls back to the contingency for other payment modes', () => {
    expect(a3IncidentCode(entry({ 1090: '3', 1173: '3' }))).toBe(3);
  });

  it.each([
    ['1', 'N', 2],
    ['2', 'N', 2],
    ['3', 'N', 3],
    ['4', 'N', 3],
    ['5', 'N', 3],
    ['1', 'S', 5],
    ['2', 'S', 5],
    ['3', 'S', 6],
    ['4', 'S', 6],
    ['5', 'S', 6],
  ])('contingency %s with relapse flag %s -> %i', (contingency, relapse, code) => {
    expect(a3IncidentCode(entry({ 1020: '20250110', 1090: contingency, 1030: relapse }))).toBe(code);
  });

  it('is null without a known contingency', () => {
    expect(a3IncidentCode(entry({ 1020: '20250110' }))).toBeNull();
    expect(a3IncidentCode(entry({ 1090: '9' }))).toBeNull();
  });

  it('can read the flag from 1100 (carencia) instead of 1030, the other reading of the spec', () => {
    const values = { 1090: '1', 1030: 'N', 1100: 'S' };
    expect(a3IncidentCode(entry(values))).toBe(2);
    expect(a3IncidentCode(entry(values), { waitingPeriodFlagCode: 1100 })).toBe(5);
    expect(leaveIncidentCode(readFields({ 1090: '3', 1030: 'S', 1100: 'N' }), { waitingPeriodFlagCode: 1100 })).toBe(3);
  });
});
