import { describe, expect, it } from 'vitest';
import { normalizeNif } from './nif.ts';

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
