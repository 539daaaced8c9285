import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatMadridDate, formatMadridDateTime, fromMadridParts, madridDayKey, madridOffsetMinutes,
  startOfMadridDay, toMadridParts,
} from './madrid.ts';

const at = (iso: string): Date => new Date(iso);

describe('madridOffsetMinutes', () => {
  it('is CET in winter and CEST in summer', () => {
    expect(madridOffsetMinutes(at('2025-01-15T12:00:00Z'))).toBe(60);
    expect(madridOffsetMinutes(at('2025-07-15T12:00:00Z'))).toBe(120);
  });

  it('switches to summer time at 01:00 UTC on the last Sunday of March', () => {
    // 2025-03-30 and 2024-03-31 are the last Sundays of March.
    expect(madridOffsetMinutes(at('2025-03-30T00:59:59.999Z'))).toBe(60);
    expect(madridOffsetMinutes(at('2025-03-30T01:00:00Z'))).toBe(120);
    expect(madridOffsetMinutes(at('2024-03-31T00:59:59Z'))).toBe(60);
    expect(madridOffsetMinutes(at('2024-03-31T01:00:00Z'))).toBe(120);
    expect(madridOffsetMinutes(at('2025-03-23T12:00:00Z'))).toBe(60);
  });

  it('switches back at 01:00 UTC on the last Sunday of October', () => {
    expect(madridOffsetMinutes(at('2025-10-26T00:59:59Z'))).toBe(120);
    expect(madridOffsetMinutes(at('2025-10-26T01:00:00Z'))).toBe(60);
    expect(madridOffsetMinutes(at('2026-10-25T00:30:00Z'))).toBe(120);
    expect(madridOffsetMinutes(at('2026-10-25T01:30:00Z'))).toBe(60);
  });
});

describe('toMadridParts', () => {
  it('reads the wall clock on both sides of the spring change', () => {
    expect(toMadridParts(at('2025-03-30T00:59:00Z'))).toMatchObject({ day: 30, hour: 1, minute: 59 });
    expect(toMadridParts(at('2025-03-30T01:00:00Z'))).toMatchObject({ day: 30, hour: 3, minute: 0 });
  });

  it('reads 02:30 twice on the autumn change', () => {
    expect(toMadridParts(at('2025-10-26T00:30:00Z'))).toMatchObject({ hour: 2, minute: 30 });
    expect(toMadridParts(at('2025-10-26T01:30:00Z'))).toMatchObject({ hour: 2, minute: 30 });
  });

  it('crosses the date line at local midnight and gives the ISO weekday', () => {
    expect(toMadridParts(at('2024-12-31T23:30:00Z'))).toMatchObject({ year: 2025, month: 1, day: 1, hour: 0, weekday: 3 });
    expect(toMadridParts(at('2025-06-01T10:00:00Z')).weekday).toBe(7);
  });
});

describe('fromMadridParts', () => {
  it('maps winter and summer wall-clock times to UTC', () => {
    expect(fromMadridParts({ year: 2025, month: 1, day: 15, hour: 9 }).toISOString()).toBe('2025-01-15T08:00:00.000Z');
    expect(fromMadridParts({ year: 2025, month: 7, day: 15, hour: 9 }).toISOString()).toBe('2025-07-15T07:00:00.000Z');
  });

  it('moves a time skipped in spring one hour forward', () => {
    const skipped = fromMadridParts({ year: 2025, month: 3, day: 30, hour: 2, minute: 30 });
    expect(skipped.toISOString()).toBe('2025-03-30T01:30:00.000Z');
    expect(toMadridParts(skipped)).toMatchObject({ hour: 3, minute: 30 });
  });

  it('picks the first (summer) reading of a repeated autumn time', () => {
    expect(fromMadridParts({ year: 2025, month: 10, day: 26, hour: 2, minute: 30 }).toISOString()).toBe('2025-10-26T00:30:00.000Z');
    expect(fromMadridParts({ year: 2025, month: 10, day: 26, hour: 3 }).toISOString()).toBe('2025-10-26T02:00:00.000Z');
  });

  it('round-trips any instant outside the repeated autumn hour', () => {
    const instants = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });
    fc.assert(fc.property(instants, (instant) => {
      const back = fromMadridParts(toMadridParts(instant));
      const repeatedHour = madridOffsetMinutes(instant) === 60 && toMadridParts(instant).hour === 2 &&
        madridOffsetMinutes(new Date(instant.getTime() - 3_600_000)) === 120;
      return repeatedHour ? back.getTime() === instant.getTime() - 3_600_000 : back.getTime() === instant.getTime();
    }));
  });
});

describe('day helpers', () => {
  it('formats and keys days in Madrid, not UTC', () => {
    const lateNight = at('2025-05-31T22:30:00Z');
    expect(madridDayKey(lateNight)).toBe('2025-06-01');
    expect(formatMadridDate(lateNight)).toBe('01/06/2025');
    expect(formatMadridDateTime(lateNight)).toBe('01/06/2025 00:30');
  });

  it('starts the day at Madrid midnight, including on DST change days', () => {
    expect(startOfMadridDay(at('2025-03-30T15:00:00Z')).toISOString()).toBe('2025-03-29T23:00:00.000Z');
    expect(startOfMadridDay(at('2025-10-26T15:00:00Z')).toISOString()).toBe('2025-10-25T22:00:00.000Z');
  });
});
