import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPE_CODES, inferIdType, normalizeNif } from './nif.ts';

describe('normalizeNif', () => {
  it.each([
    ['0000012345678Z', '12345678Z'],
    ['0000001234567Z', '01234567Z'], // a DNI keeps its own leading zero
    ['00000X1234567L', 'X1234567L'],
    ['000000AB123456', 'AB123456'],
    ['12345678z', '12345678Z'],
    ['1234567Z', '1234567Z'], // unpadded input is not given a zero it did not have
    ['00000000000000', ''],
  ])('%s -> %s', (padded, nif) => {
    expect(normalizeNif(padded)).toBe(nif);
  });
});

describe('inferIdType', () => {
  it.each([
    ['12345678Z', 'dni'],
    ['01234567Z', 'dni'],
    ['X1234567L', 'nie'],
    ['Y1234567X', 'nie'],
    ['Z7654321A', 'nie'],
    ['AB123456', 'passport'],
    ['1234567Z', null],
    ['A1234567L', null],
    ['ABC12345', null],
    ['', null],
  ])('%s is %s', (nif, type) => {
    expect(inferIdType(nif)).toBe(type);
  });

  it('maps to the registration document codes 1, 2 and 6', () => {
    expect(DOCUMENT_TYPE_CODES).toEqual({ dni: '1', passport: '2', nie: '6' });
  });
});
