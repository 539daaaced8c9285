import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toMadridParts } from '../time/madrid.ts';
import { SCHEDULE_INTERVALS, nextRunDate, occurrence, repeatText } from './next-run.ts';

const at = (iso: string): Date => new Date(iso);

describe('nextRunDate', () => {
  it('adds hours until the date is in the future', () => {
    const next = nextRunDate(at('2025-01-10T08:00:00Z'), 3, 'hours', at('2025-01-10T15:30:00Z'));
    expect(next.toISOString()).toBe('2025-01-10T17:00:00.000Z');
  });

  it('needs a date strictly after now', () => {
    const next = nextRunDate(at('2025-01-10T08:00:00Z'), 1, 'days', at('2025-01-11T08:00:00Z'));
    expect(next.toISOString()).toBe('2025-01-12T08:00:00.000Z');
  });

  it('returns a date that is already in the future unchanged', () => {
    const scheduled = at('2025-02-01T08:00:00Z');
    expect(nextRunDate(scheduled, 1, 'days', at('2025-01-01T00:00:00Z'))).toBe(scheduled);
  });

  it('keeps the Madrid wall-clock time for daily runs across the spring change', () => {
    // 09:00 CET on 29 March is 08:00 UTC; 09:00 CEST on 30 March is 07:00 UTC.
    const next = nextRunDate(at('2025-03-29T08:00:00Z'), 1, 'days', at('2025-03-29T10:00:00Z'));
    expect(next.toISOString()).toBe('2025-03-30T07:00:00.000Z');
    expect(toMadridParts(next)).toMatchObject({ hour: 9, minute: 0 });
  });

  it('keeps the Madrid wall-clock time for daily runs across the autumn change', () => {
    const next = nextRunDate(at('2025-10-25T07:00:00Z'), 1, 'days', at('2025-10-25T12:00:00Z'));
    expect(next.toISOString()).toBe('2025-10-26T08:00:00.000Z');
  });

  it('runs a skipped spring time one hour later that day and at its own time the day after', () => {
    const start = at('2025-03-29T01:30:00Z'); // 02:30 CET on 29 March
    expect(nextRunDate(start, 1, 'days', at('2025-03-29T12:00:00Z')).toISOString()).toBe('2025-03-30T01:30:00.000Z');
    expect(toMadridParts(nextRunDate(start, 1, 'days', at('2025-03-29T12:00:00Z'))).hour).toBe(3);
    expect(nextRunDate(start, 1, 'days', at('2025-03-30T12:00:00Z')).toISOString()).toBe('2025-03-31T00:30:00.000Z');
  });

  it('keeps hourly steps on the wall clock across DST', () => {
    // Every 6 hours from 00:00 Madrid: 00, 06, 12, 18 on both sides of the change.
    const start = at('2025-03-29T23:00:00Z'); // 00:00 CET on 30 March
    const next = nextRunDate(start, 6, 'hours', at('2025-03-30T01:00:00Z'));
    expect(next.toISOString()).toBe('2025-03-30T04:00:00.000Z');
    expect(toMadridParts(next).hour).toBe(6);
  });

  it('clamps monthly runs to the month end and returns to the original day', () => {
    const jan31 = at('2025-01-31T09:00:00Z'); // 10:00 CET
    expect(nextRunDate(jan31, 1, 'months', at('2025-02-01T00:00:00Z')).toISOString()).toBe('2025-02-28T09:00:00.000Z');
    expect(nextRunDate(jan31, 1, 'months', at('2025-03-01T00:00:00Z')).toISOString()).toBe('2025-03-31T08:00:00.000Z');
    expect(nextRunDate(jan31, 1, 'months', at('2025-04-01T00:00:00Z')).toISOString()).toBe('2025-04-30T08:00:00.000Z');
    const leap = nextRunDate(at('2024-01-31T09:00:00Z'), 1, 'months', at('2024-02-01T00:00:00Z'));
    expect(leap.toISOString()).toBe('2024-02-29T09:00:00.000Z');
  });

  it('steps months across the year end', () => {
    const next = nextRunDate(at('2024-11-15T09:00:00Z'), 2, 'months', at('2024-12-01T00:00:00Z'));
    expect(next.toISOString()).toBe('2025-01-15T09:00:00.000Z');
  });

  it('catches up a schedule many years old quickly', () => {
    const next = nextRunDate(at('2000-01-01T08:00:00Z'), 1, 'hours', at('2025-06-01T12:15:00Z'));
    expect(next.toISOString()).toBe('2025-06-01T13:00:00.000Z');
  });

  it('refuses a step that would never move', () => {
    expect(() => nextRunDate(at('2025-01-01T00:00:00Z'), 0, 'days', at('2025-02-01T00:00:00Z'))).toThrow(RangeError);
    expect(() => nextRunDate(at('2025-01-01T00:00:00Z'), 1.5, 'days', at('2025-02-01T00:00:00Z'))).toThrow(RangeError);
  });

  it('is always in the future, on the step, and the first such step (property)', () => {
    const range = { min: new Date('2010-01-01T00:00:00Z'), max: new Date('2040-01-01T00:00:00Z'), noInvalidDate: true };
    fc.assert(fc.property(
      fc.date(range), fc.date(range), fc.integer({ min: 1, max: 30 }), fc.constantFrom(...SCHEDULE_INTERVALS),
      (start, now, every, interval) => {
        const next = nextRunDate(start, every, interval, now);
        if (start.getTime() > now.getTime()) return next === start;
        if (next.getTime() <= now.getTime()) return false;
        // Some k >= 1 gives exactly this date, and the step before it was not in the future.
        for (let k = 1; k < 400_000; k += 1) {
          const candidate = occurrence(start, k * every, interval);
          if (candidate.getTime() > now.getTime()) return candidate.getTime() === next.getTime();
        }
        return false;
      },
    ), { numRuns: 60 });
  });
});

describe('nextRunDate around DST changes', () => {
  it('is in the future and is the first step after now (property)', () => {
    const nearChange = (iso: string) => {
      const centre = new Date(iso).getTime();
      return fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }).map((offset) => new Date(centre + offset));
    };
    const instants = fc.oneof(nearChange('2025-03-30T01:00:00Z'), nearChange('2025-10-26T01:00:00Z'));
    fc.assert(fc.property(instants, instants, fc.integer({ min: 1, max: 5 }), fc.constantFrom(...SCHEDULE_INTERVALS),
      (start, now, every, interval) => {
        const next = nextRunDate(start, every, interval, now);
        if (start.getTime() > now.getTime()) return next === start;
        let k = 1;
        while (occurrence(start, k * every, interval).getTime() <= now.getTime()) k += 1;
        return next.getTime() === occurrence(start, k * every, interval).getTime() && next.getTime() > now.getTime();
      }), { numRuns: 300 });
  });
});

describe('repeatText', () => {
  it('agrees the unit with the number', () => {
    expect(repeatText(1, 'hours')).toBe('Se lanza cada 1 hora');
    expect(repeatText(2, 'hours')).toBe('Se lanza cada 2 horas');
    expect(repeatText(1, 'days')).toBe('Se lanza cada 1 día');
    expect(repeatText(3, 'days')).toBe('Se lanza cada 3 días');
    expect(repeatText(1, 'months')).toBe('Se lanza cada 1 mes');
    expect(repeatText(6, 'months')).toBe('Se lanza cada 6 meses');
  });
});
