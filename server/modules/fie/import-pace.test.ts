import { describe, expect, it } from 'vitest';
import { ImportPace } from './import-pace.ts';

/** Keeps the event loop busy for `ms`, as another request's work would. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // another request's synchronous work
  }
}

describe('ImportPace', () => {
  it('rests as long as the others used the loop at its turns, at most as long as the batch took', async () => {
    const pace = new ImportPace();
    // Others waiting at the first turn: a request of 30 ms runs in it.
    setImmediate(() => busyFor(30));
    await pace.turn();
    await pace.turn();
    expect(pace.restAfter(100)).toBeGreaterThanOrEqual(30);
    // Counted since the last rest only: nobody waited since.
    await pace.turn();
    expect(pace.restAfter(100)).toBeLessThan(5);
    setImmediate(() => busyFor(60));
    await pace.turn();
    expect(pace.restAfter(20)).toBe(20);
  });

  it('does not rest when nothing else wanted the loop', async () => {
    const pace = new ImportPace();
    for (let turn = 0; turn < 10; turn += 1) await pace.turn();
    expect(pace.restAfter(50)).toBeLessThan(5);
  });

  it('counts by the clock it is given', async () => {
    let now = 0;
    const pace = new ImportPace(() => (now += 7));
    await pace.turn();
    await pace.turn();
    expect(pace.restAfter(100)).toBe(14);
    expect(pace.restAfter(100)).toBe(0);
  });
});
