import { describe, expect, it } from 'vitest';
import { LocalRunQueue, type QueuedRun } from './queue.ts';

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

  it('offers a delayed run only after its delay, and forgets everything when closed', async () => {
    const { queue, started, execute } = harness(1);
    await queue.start(execute);
    await queue.enqueue(run('later', 'A', 0), 50);
    expect(started).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(started).toEqual(['later']);
    await queue.enqueue(run('never', 'B', 0), 50);
    await queue.close();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(started).toEqual(['later']);
  });
});
