import { fromMadridParts, toMadridParts } from '../time/madrid.ts';

export type ScheduleInterval = 'hours' | 'days' | 'months';

export const SCHEDULE_INTERVALS: readonly ScheduleInterval[] = ['hours', 'days', 'months'];

/** Spec §9: a new schedule repeats every 1 day unless the user says otherwise. */
export const DEFAULT_REPEAT = { every: 1, interval: 'days' } as const satisfies { every: number; interval: ScheduleInterval };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The schedule's occurrence `steps` units after `start`, on the Madrid wall clock:
 * - the wall-clock time is kept for every interval, so a robot set for 09:00 runs at 09:00 both
 *   sides of a DST change, and one every 6 hours from 00:00 stays on 00/06/12/18;
 * - a wall time skipped in spring runs one hour later (02:30 -> 03:30); a repeated autumn time runs
 *   at its first occurrence;
 * - months are counted from the original day and clamped to the month's end, so Jan 31 gives
 *   Feb 28 (29 in leap years), then Mar 31, Apr 30...
 */
export function occurrence(start: Date, steps: number, interval: ScheduleInterval): Date {
  const wall = toMadridParts(start);
  if (interval === 'hours') return fromMadridParts({ ...wall, hour: wall.hour + steps });
  if (interval === 'days') return fromMadridParts({ ...wall, day: wall.day + steps });
  const monthIndex = wall.year * 12 + (wall.month - 1) + steps;
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return fromMadridParts({ ...wall, year, month, day: Math.min(wall.day, daysInMonth(year, month)) });
}

/**
 * A first step count whose previous occurrence is surely not after `now`, so the search below
 * only walks forward a few steps however old the schedule is. Wall-clock and elapsed time differ
 * by at most the one DST hour.
 */
function firstCandidate(start: Date, every: number, interval: ScheduleInterval, now: Date): number {
  if (interval === 'months') {
    const from = toMadridParts(start);
    const to = toMadridParts(now);
    const monthsApart = (to.year - from.year) * 12 + (to.month - from.month);
    return Math.max(1, Math.floor((monthsApart - 1) / every) + 1);
  }
  const stepLength = every * (interval === 'hours' ? HOUR : DAY);
  return Math.max(1, Math.floor((now.getTime() - start.getTime() - HOUR) / stepLength) + 1);
}

/**
 * Spec §4 Scheduled task: the next run of a repeating task, adding `every` hours/days/months to the
 * scheduled date until it is in the future (strictly after `now`). A date already in the future is
 * returned as it is. Steps are counted from scheduledDate (see `occurrence` for the convention).
 */
export function nextRunDate(scheduledDate: Date, every: number, interval: ScheduleInterval, now: Date): Date {
  if (!Number.isInteger(every) || every < 1) throw new RangeError(`every must be a positive integer, got ${every}`);
  if (Number.isNaN(scheduledDate.getTime())) throw new RangeError('scheduledDate is not a valid date');
  if (scheduledDate.getTime() > now.getTime()) return scheduledDate;

  let steps = firstCandidate(scheduledDate, every, interval, now);
  let next = occurrence(scheduledDate, steps * every, interval);
  while (next.getTime() <= now.getTime()) {
    steps += 1;
    next = occurrence(scheduledDate, steps * every, interval);
  }
  return next;
}

const UNIT_NAMES: Record<ScheduleInterval, { singular: string; plural: string }> = {
  hours: { singular: 'hora', plural: 'horas' },
  days: { singular: 'día', plural: 'días' },
  months: { singular: 'mes', plural: 'meses' },
};

/**
 * 'Se lanza cada {n} hora(s)/día(s)/mes(es)'. Reading of the spec's '(s)': the unit agrees with the
 * number, singular for exactly 1 and plural otherwise, and the number is always shown
 * ('Se lanza cada 1 día', 'Se lanza cada 3 días').
 */
export function repeatText(every: number, interval: ScheduleInterval): string {
  const unit = UNIT_NAMES[interval];
  return `Se lanza cada ${every} ${every === 1 ? unit.singular : unit.plural}`;
}
