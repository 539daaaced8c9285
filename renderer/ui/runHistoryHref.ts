import { madridDayKey } from '#shared/time/madrid.ts';

/**
 * Where one run is in the run history: /flows filtered to its robot's name and its Madrid day (the
 * history reads ?q, ?desde and ?hasta and has no page of its own for a run; the ledger links runs so too).
 */
export function runHistoryHref(run: { robot: string; createdAt: string }): string {
  const at = new Date(run.createdAt);
  const query = new URLSearchParams({ q: run.robot });
  if (!Number.isNaN(at.getTime())) {
    const day = madridDayKey(at);
    query.set('desde', day);
    query.set('hasta', day);
  }
  return `/flows?${query.toString()}`;
}
