import { describe, expect, it } from 'vitest';
import { closedAfterKill, schedulesFiredTwice, waitsBehindOtherFirms, type RunTimes } from './checks.ts';

const run = (id: string, groupId: string, rank: number, createdAt: number, startedAt: number | null, finishedAt: number | null): RunTimes => ({ id, groupId, rank, createdAt, startedAt, finishedAt });

describe('waitsBehindOtherFirms', () => {
  it('counts nothing when runs start in the fair order', () => {
    // One slot: B's run, launched at 500 with the head's rank, goes right after the run executing then.
    const runs = [run('a0', 'A', 0, 0, 10, 1_000), run('b0', 'B', 0, 500, 1_000, 2_000), run('a1', 'A', 1, 0, 2_000, 3_000), run('a2', 'A', 2, 0, 3_000, 4_000)];
    expect(waitsBehindOtherFirms(runs, 1)).toEqual([]);
  });

  it("measures a run's wait from the first start of another firm's run that was behind it", () => {
    // B arrives with rank 0 at 500; A's rank-1 and rank-2 runs start at 1,000 and 2,000 before it, at 4,500.
    const runs = [run('a0', 'A', 0, 0, 10, 900), run('a1', 'A', 1, 0, 1_000, 1_900), run('a2', 'A', 2, 0, 2_000, 2_900), run('b0', 'B', 0, 500, 4_500, 5_000)];
    expect(waitsBehindOtherFirms(runs, 1)).toEqual([{ runId: 'b0', groupId: 'B', waitedMs: 3_500 }]);
  });

  it('does not count overtakes while the waiting firm was at its limit of runs executing', () => {
    // b1 waits while b0 runs (B at its limit of 1): A's later runs may pass it; at 3,000 B has room again.
    const runs = [run('b0', 'B', 0, 0, 0, 3_000), run('b1', 'B', 1, 0, 3_100, 4_000), run('a0', 'A', 5, 100, 1_000, 2_000), run('a1', 'A', 6, 100, 2_000, 3_050)];
    expect(waitsBehindOtherFirms(runs, 1)).toEqual([]);
    const late = [...runs.slice(0, 3), run('a1', 'A', 6, 100, 3_010, 3_500)];
    expect(waitsBehindOtherFirms(late, 1)).toEqual([{ runId: 'b1', groupId: 'B', waitedMs: 90 }]);
  });

  it('orders equal ranks by launch time, and ignores runs that never started', () => {
    const runs = [run('a', 'A', 3, 100, 2_000, 2_500), run('b', 'B', 3, 200, 1_000, 1_500), run('c', 'C', 0, 0, null, null)];
    expect(waitsBehindOtherFirms(runs, 2)).toEqual([{ runId: 'a', groupId: 'A', waitedMs: 1_000 }]);
  });
});

describe('closedAfterKill', () => {
  it('measures each interrupted run from the kill just before its close', () => {
    expect(closedAfterKill([{ id: 'x', finishedAt: 12_000 }, { id: 'y', finishedAt: 31_000 }, { id: 'z', finishedAt: 500 }], [20_000, 1_000])).toEqual([
      { id: 'x', afterMs: 11_000 },
      { id: 'y', afterMs: 11_000 },
      { id: 'z', afterMs: null },
    ]);
  });
});

describe('schedulesFiredTwice', () => {
  it('counts a schedule with two runs that ran, not one whose first run was interrupted and retried', () => {
    const runs = [
      { id: 'r1', scheduleId: 'once', launchStatus: 200 },
      { id: 'r2', scheduleId: 'killed', launchStatus: 299 },
      { id: 'r3', scheduleId: 'killed', launchStatus: 200 },
      { id: 'r4', scheduleId: 'double', launchStatus: 200 },
      { id: 'r5', scheduleId: 'double', launchStatus: 500 },
      { id: 'r6', scheduleId: null, launchStatus: 200 },
    ];
    expect(schedulesFiredTwice(runs)).toEqual([{ scheduleId: 'double', runs: [runs[3], runs[4]] }]);
  });
});
