import { setImmediate, setTimeout } from 'node:timers/promises';

/**
 * The pace of a file's import on the event loop, which it shares with every other request (SQLite's
 * driver is synchronous: each of a batch's statements holds the loop). Between statements the import
 * yields a turn (`turn`), in which whatever else was waiting runs, and the time that took is counted.
 * After each batch it rests (`rest`) as long as the others used meanwhile, at most as long as the batch
 * took: under load the others keep at least half the loop, as when it always rested that long, and on a
 * quiet server a year's file is not made to wait for nobody (a 100,000-entry import spent half its time
 * resting).
 */
export class ImportPace {
  #othersMs = 0;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** A turn of the event loop for whatever else is waiting; what it ran is counted. */
  readonly turn = async (): Promise<void> => {
    const asked = this.clock();
    await setImmediate();
    this.#othersMs += this.clock() - asked;
  };

  /** How long to rest after a batch that took `batchMs`: what the others used since the last rest, up to the batch's own time. */
  restAfter(batchMs: number): number {
    const rest = Math.min(batchMs, this.#othersMs);
    this.#othersMs = 0;
    return rest;
  }

  /** Rests after a batch that took `batchMs` (see restAfter). */
  async rest(batchMs: number): Promise<void> {
    const ms = this.restAfter(batchMs);
    if (ms > 0) await setTimeout(ms);
  }
}
