import { describe, expect, it } from 'vitest';
import { jobPriority, LocalRunQueue, type QueuedRun } from './queue.ts';

/** A queue whose runs end when the test says so; records the order they started in. */
function harness(concurrency: number, perFirm?: number) {
  const queue = new LocalRunQueue(concurrency, perFirm);
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const execute = (run: QueuedRun) =>
    new Promise<void>((resolve) => {
      started.push(run.runId);
      finishers.set(run.runId, resolve);
    });
  const finish = async (runId: string) => {
    finishers.get(runId)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, finish, execute };
}

const run = (runId: string, groupId: string, rank: number): QueuedRun => ({ runId, groupId, rank });

describe('LocalRunQueue', () => {
  it('takes the lowest rank first, and the oldest among equal ranks', async () => {
    const { queue, started, finish, execute } = harness(1);
    await queue.enqueue(run('a0', 'A', 0));
    await queue.enqueue(run('a1', 'A', 1));
    await queue.enqueue(run('a2', 'A', 2));
    // Firm B arrives with the rank at the head of the queue: it goes right after the head.
    await queue.enqueue(run('b0', 'B', 1));
    await queue.start(execute);
    for (const id of ['a0', 'a1', 'b0', 'a2']) await finish(id);
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2']);
  });

  it("lets other firms pass a firm at its limit of running runs, and keeps the slot count", async () => {
    const { queue, started, finish, execute } = harness(2, 1);
    await queue.start(execute);
    await queue.enqueue(run('a0', 'A', 0));
    await queue.enqueue(run('a1', 'A', 1));
    await queue.enqueue(run('b0', 'B', 5));
    await queue.enqueue(run('c0', 'C', 6));
    expect(started).toEqual(['a0', 'b0']);
    await finish('a0');
    expect(started).toEqual(['a0', 'b0', 'a1']);
    await finish('b0');
    expect(started).toEqual(['a0', 'b0', 'a1', 'c0']);
  });

  it('forgets its waiting runs when closed', async () => {
    const { queue, started, finish, execute } = harness(1);
    await queue.start(execute);
    await queue.enqueue(run('first', 'A', 0));
    await queue.enqueue(run('never', 'B', 0));
    await queue.close();
    await finish('first');
    expect(started).toEqual(['first']);
  });

  it('puts a run sent again before the waiting runs of its rank, behind the lower ranks, and never twice', async () => {
    const { queue, started, finish, execute } = harness(1);
    await queue.start(execute);
    await queue.enqueue(run('busy', 'A', 0));
    await queue.enqueue(run('b2', 'B', 2));
    await queue.enqueue(run('c1', 'C', 1));
    await queue.resend([run('a2', 'A', 2), run('b2', 'B', 2)]);
    for (const runId of ['busy', 'c1', 'a2', 'b2']) await finish(runId);
    expect(started).toEqual(['busy', 'c1', 'a2', 'b2']);
  });
});

describe('jobPriority (pg-boss: the highest first, the oldest among equals)', () => {
  it('orders by rank, with a run sent again before its rank and behind the lower ones', () => {
    expect(jobPriority(0, 'after its rank')).toBeGreaterThan(jobPriority(1, 'before its rank'));
    expect(jobPriority(1, 'before its rank')).toBeGreaterThan(jobPriority(1, 'after its rank'));
    expect(jobPriority(1, 'after its rank')).toBeGreaterThan(jobPriority(2, 'before its rank'));
  });

  it('stays a PostgreSQL integer for any rank', () => {
    for (const rank of [0, 2 ** 31, Number.MAX_SAFE_INTEGER, -5]) {
      for (const place of ['after its rank', 'before its rank'] as const) expect(Math.abs(jobPriority(rank, place))).toBeLessThan(2 ** 31);
    }
  });
});
