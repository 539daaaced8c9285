/**
 * What `npm run scaleout` checks once every run has closed, as pure functions over the runs' rows (so
 * they are tested with made-up histories): fairness between firms, how soon the runs of a killed
 * process closed, and the books.
 */

export interface RunTimes {
  id: string;
  groupId: string;
  /** Its place in the fair queue (lower goes first; equal ranks, the older first). */
  rank: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface Unfairness {
  runId: string;
  groupId: string;
  /** From the first start of a run that was behind it (another firm's) to its own start, in ms. */
  waitedMs: number;
}

const behind = (run: RunTimes, other: RunTimes) => other.rank > run.rank || (other.rank === run.rank && other.createdAt > run.createdAt);

/**
 * For each run, how long it waited behind another firm's queue: while it waited, a run of another firm
 * that was behind it in the fair order started, although its own firm had room (fewer than
 * `runningPerFirm` of its runs executing). It is counted from that first overtaking start to its own.
 * A run that was never overtaken so (the others went first because they were ahead, or its firm was at
 * its limit) waited 0 behind others. Sorted by the wait, longest first.
 */
export function waitsBehindOtherFirms(runs: readonly RunTimes[], runningPerFirm: number): Unfairness[] {
  const started = runs.filter((run): run is RunTimes & { startedAt: number } => run.startedAt !== null).sort((a, b) => a.startedAt - b.startedAt);
  const byFirm = new Map<string, RunTimes[]>();
  for (const run of started) byFirm.set(run.groupId, [...(byFirm.get(run.groupId) ?? []), run]);
  const runningOf = (groupId: string, at: number) => (byFirm.get(groupId) ?? []).filter((run) => (run.startedAt as number) <= at && (run.finishedAt ?? Number.POSITIVE_INFINITY) > at).length;

  const waits: Unfairness[] = [];
  for (const run of started) {
    // The runs that started while this one waited are a slice of the sorted starts.
    let first = lowerBound(started, run.createdAt);
    let overtaken: number | null = null;
    for (; first < started.length && (started[first] as RunTimes & { startedAt: number }).startedAt < run.startedAt; first += 1) {
      const other = started[first] as RunTimes & { startedAt: number };
      if (other.groupId === run.groupId || !behind(run, other)) continue;
      if (runningOf(run.groupId, other.startedAt) >= runningPerFirm) continue;
      overtaken = other.startedAt;
      break;
    }
    if (overtaken !== null) waits.push({ runId: run.id, groupId: run.groupId, waitedMs: run.startedAt - overtaken });
  }
  return waits.sort((a, b) => b.waitedMs - a.waitedMs);
}

function lowerBound(sorted: readonly (RunTimes & { startedAt: number })[], at: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as RunTimes & { startedAt: number }).startedAt < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How long after its process's death each interrupted run was closed: the kill just before its close.
 * `interrupted` are the runs closed as abandoned by their process (299), `kills` the kill times.
 */
export function closedAfterKill(interrupted: readonly { id: string; finishedAt: number }[], kills: readonly number[]): { id: string; afterMs: number | null }[] {
  const sorted = [...kills].sort((a, b) => a - b);
  return interrupted.map((run) => {
    const kill = sorted.filter((time) => time <= run.finishedAt).at(-1);
    return { id: run.id, afterMs: kill === undefined ? null : run.finishedAt - kill };
  });
}

/** A run as the schedule check reads it: the schedule that launched it, and its launcher status. */
export interface ScheduledRun {
  id: string;
  scheduleId: string | null;
  launchStatus: number | null;
}

/** The launcher status of a run its server abandoned (it died): not charged, and the schedule's slot is tried again. */
const INTERRUPTED = 299;

/**
 * The schedules that fired more than once. A run interrupted by its process's death (299, not charged)
 * does not count: the schedule runner tries that slot again by design (schedules/runner.ts), so a
 * schedule whose run was killed fires a second time, and only a second run that really ran is a double.
 */
export function schedulesFiredTwice(runs: readonly ScheduledRun[]): { scheduleId: string; runs: ScheduledRun[] }[] {
  const bySchedule = new Map<string, ScheduledRun[]>();
  for (const run of runs) if (run.scheduleId) bySchedule.set(run.scheduleId, [...(bySchedule.get(run.scheduleId) ?? []), run]);
  return [...bySchedule.entries()]
    .filter(([, fired]) => fired.filter((run) => run.launchStatus !== INTERRUPTED).length > 1)
    .map(([scheduleId, fired]) => ({ scheduleId, runs: fired }));
}
