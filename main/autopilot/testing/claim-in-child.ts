/**
 * A second process on the same task cache, for the race test: on each { round, at } it waits for the
 * instant `at` (as the parent does), asks for a due task, and answers { round, claimed }.
 */
import { TaskCache } from '../task-cache.ts';

const file = process.argv[2];
if (!file || !process.send) throw new Error('usage: claim-in-child.ts <cache file> (with an IPC channel)');
const cache = TaskCache.open(file);
const owner = `${process.pid}:child`;

process.on('message', (message: { round: number; at: number; now: string } | 'exit') => {
  if (message === 'exit') {
    cache.close();
    process.exit(0);
  }
  while (Date.now() < message.at) {
    // Spin to the agreed instant so both processes ask at once.
  }
  const claimed = cache.claimDue(new Date(message.now), owner, 60_000, ['robots']);
  process.send?.({ round: message.round, claimed: claimed?.id ?? null });
});
process.send({ ready: true });
