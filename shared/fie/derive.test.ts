import { describe, expect, it } from 'vitest';
import { deriveFacts, entryType, fullName, leaveDuration } from './derive.ts';
import { readFields } from './fields.ts';

describe('entryType (spec §3 type rules, first match wins)', () => {
  it.each([
    ['dip when 1610 is present', { 1610: 'X', 1520: '20250117', 1150: '20250112' }, 'dip'],
    ['cit when 1520 is present', { 1520: '20250117', 1150: '20250112' }, 'cit'],
    ['cit when 1530 is present', { 1530: '02' }, 'cit'],
    ['nac when 2110 is present', { 2110: 'X', 1910: 'AB', 1810: 'X' }, 'nac'],
    ['nac when 1910 is NC', { 1910: 'NC', 1810: 'X' }, 'nac'],
    ['dop for any other 1910', { 1910: 'RE', 1810: 'X' }, 'dop'],
    ['jub when 1810 is present', { 1810: 'X', 1150: '20250112' }, 'jub'],
    ['alta when 1150 is present', { 1020: '20250110', 1150: '20250112' }, 'alta'],
    ['baja otherwise', { 1020: '20250110', 1150: '00000000' }, 'baja'],
  ])('%s', (_rule, values, type) => {
    expect(entryType(readFields(values))).toBe(type);
  });
});

describe('leaveDuration: both the leave day and the alta day count', () => {
  it.each([
    ['20250110', '20250110', 1],
    ['20250110', '20250111', 2],
    ['20250110', '20250112', 3],
    ['20241230', '20250102', 4],
    ['20240228', '20240301', 3], // leap year
  ])('%s to %s lasts %i days', (start, end, days) => {
    expect(leaveDuration(readFields({ 1020: start, 1150: end }))).toBe(days);
  });

  it('is null for an open leave, an unreadable date, or an alta before the leave', () => {
    expect(leaveDuration(readFields({ 1020: '20250110' }))).toBeNull();
    expect(leaveDuration(readFields({ 1020: '20250110', 1150: '20251310' }))).toBeNull();
    expect(leaveDuration(readFields({ 1020: '20250110', 1150: '20250109' }))).toBeNull();
  });
});

describe('deriveFacts', () => {
  it('marks leaves of 2 days or fewer as short', () => {
    expect(deriveFacts(readFields({ 1020: '20250110', 1150: '20250111' })).shortDuration).toBe(true);
    expect(deriveFacts(readFields({ 1020: '20250110', 1150: '20250112' })).shortDuration).toBe(false);
    expect(deriveFacts(readFields({ 1020: '20250110' })).shortDuration).toBe(false);
  });

  it('is cancelled when 1170 or 1171 is S', () => {
    expect(deriveFacts(readFields({ 1170: 'S' })).isCanceled).toBe(true);
    expect(deriveFacts(readFields({ 1170: 'N', 1171: 'S' })).isCanceled).toBe(true);
    expect(deriveFacts(readFields({ 1170: 'N', 1171: 'N' })).isCanceled).toBe(false);
  });

  it('tells alta from baja', () => {
    expect(deriveFacts(readFields({ 1150: '20250112' }))).toMatchObject({ isAlta: true, isBaja: false });
    expect(deriveFacts(readFields({ 1020: '20250110' }))).toMatchObject({ isAlta: false, isBaja: true });
    expect(deriveFacts(readFields({ 1530: '01' }))).toMatchObject({ isAlta: false, isBaja: false });
  });

  it('takes the NIF from 670 and infers its document type', () => {
    expect(deriveFacts(readFields({ 670: '000000Y1234567X' }))).toMatchObject({ nif: 'Y1234567X', idType: 'NIE' });
    expect(deriveFacts(readFields({ 670: '000000AB123456' }))).toMatchObject({ nif: 'AB123456', idType: 'PASSPORT' });
    expect(deriveFacts(readFields({ 670: '00000000000000' }))).toMatchObject({ nif: null, idType: null });
  });

  it('joins name and surnames, skipping missing parts', () => {
    expect(fullName(readFields({ 820: 'GARCIA', 830: 'DE  LA  TORRE', 840: 'ANA MARIA' }))).toBe('ANA MARIA GARCIA DE LA TORRE');
    expect(fullName(readFields({ 820: 'GARCIA' }))).toBe('GARCIA');
    expect(fullName({})).toBe('');
  });
});
