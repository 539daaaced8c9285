import { threadId } from 'node:worker_threads';
import type { Robot } from '#shared/flows/robot.ts';

/** When this module was loaded, as ms since the epoch (comparable across threads: they share timeOrigin). */
const loadedAt = performance.timeOrigin + performance.now();
/** When this thread's Node environment was set up: nodeTiming is the worker's own. */
const threadStartedAt = performance.timeOrigin + performance.nodeTiming.environment;
/** Runs this thread has seen: a worker used for a second run would say 2. */
let runsInThisThread = 0;

/** Says which thread ran it, when that thread and this module started, and how many runs the thread had. */
const robot: Robot = {
  async run(context) {
    runsInThisThread += 1;
    context.log('info', `Hilo ${threadId}`);
    return {
      result: 'Success',
      usageUnits: 1,
      outputs: [],
      summary: { threadId, runsInThisThread, threadStartedAt, robotLoadedAt: loadedAt },
    };
  },
};

export default robot;
