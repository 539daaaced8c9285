import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clampToRange, stepWithWrap } from './stepper.ts';

describe('clampToRange', () => {
  it('keeps values inside the default 0-50 range', () => {
    expect(clampToRange(-3)).toBe(0);
    expect(clampToRange(70)).toBe(50);
    expect(clampToRange(12)).toBe(12);
    expect(clampToRange(Number.NaN)).toBe(0);
  });
});

describe('stepWithWrap', () => {
  it('wraps at both ends', () => {
    expect(stepWithWrap(50, 1)).toBe(0);
    expect(stepWithWrap(0, -1)).toBe(50);
    expect(stepWithWrap(23, 1, { min: 0, max: 23 })).toBe(0);
    expect(stepWithWrap(0, -1, { min: 0, max: 59 })).toBe(59);
    expect(stepWithWrap(10, 1)).toBe(11);
  });

  it('wraps larger steps like a clock', () => {
    expect(stepWithWrap(55, 10, { min: 0, max: 59 })).toBe(5);
    expect(stepWithWrap(3, -10, { min: 1, max: 12 })).toBe(5);
  });

  it('clamps an out-of-range value before stepping', () => {
    expect(stepWithWrap(80, -1)).toBe(49);
  });

  it('always lands in range (property)', () => {
    fc.assert(fc.property(
      fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 200 }),
      fc.double({ noNaN: false }), fc.integer({ min: -500, max: 500 }),
      (min, width, value, delta) => {
        const result = stepWithWrap(value, delta, { min, max: min + width });
        return Number.isInteger(result) && result >= min && result <= min + width;
      },
    ));
  });

  it('returns to the start after a full turn (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 50 }), (value) => stepWithWrap(value, 51) === value));
  });
});
