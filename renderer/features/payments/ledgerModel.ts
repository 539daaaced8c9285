import type { LedgerEntry, UsageReportQuery } from '#shared/api/billing.ts';
import { fromMadridParts, madridDayKey } from '#shared/time/index.ts';
import { isBadDayRange, type DayRange } from '../../ui/dayRange.ts';

/** The days picked in 'Desde' / 'Hasta' ('yyyy-mm-dd', Madrid), '' when not set. */
export type LedgerRange = DayRange;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function madridDay(key: string, offsetDays = 0): Date | null {
  const match = DAY.exec(key);
  if (!match) return null;
  return fromMadridParts({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) + offsetDays });
}

/**
 * The report's query for the picked days: 'Desde' from the start of its Madrid day, 'Hasta' up to the
 * last instant of its day (the whole day counts). Nothing picked asks for the current period.
 */
export function ledgerQuery(range: LedgerRange): Omit<UsageReportQuery, 'cursor'> {
  const from = madridDay(range.from);
  // 'Hasta' before 'Desde': the screen says so and asks with 'Desde' only.
  const nextDay = isBadDayRange(range) ? null : madridDay(range.to, 1);
  return {
    ...(from && { from: from.toISOString() }),
    ...(nextDay && { to: new Date(nextDay.getTime() - 1).toISOString() }),
  };
}

// Grouped from four digits ('2.000', '10.000'), as the balance chip and the plans show them (formatCredits).
const grouped = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2, useGrouping: 'always' });

/** A movement's slans with their sign, as a statement reads: '−12', '+2.000', '+10.000'. */
export function signedSlans(slans: number): string {
  if (slans === 0) return '0';
  return `${slans < 0 ? '−' : '+'}${grouped.format(Math.abs(slans))}`;
}

/** A plain figure, grouped ('1.250', '12.500'). */
export const formatFigure = (value: number): string => grouped.format(value);

/**
 * Where a run's row leads: the run history filtered to the robot's name and the run's day (the history
 * reads ?q, ?desde and ?hasta; it has no link to a single run).
 */
export function runHistoryUrl(entry: LedgerEntry): string | null {
  if (entry.kind !== 'charge' || entry.robot === null) return null;
  const day = madridDayKey(new Date(entry.at));
  return `/flows?${new URLSearchParams({ q: entry.robot, desde: day, hasta: day }).toString()}`;
}
