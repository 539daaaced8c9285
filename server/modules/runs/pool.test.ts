import { afterAll, describe, expect, it } from 'vitest';
import type { RobotLogLevel } from '#shared/flows/robot.ts';
import { spareWorkerReady, startRunWorker, stopSpareWorker, type WorkerLimits } from './pool.ts';
import { THREAD_FLOW_ID } from './pool-test-flows/index.ts';
import type { WorkerJob } from './worker-protocol.ts';

const FLOWS_MODULE = new URL('./pool-test-flows/index.ts', import.meta.url).href;
const LIMITS: WorkerLimits = { timeLimitMs: 30_000, memoryMb: 128, stopGraceMs: 300 };

interface ThreadReport {
  threadId: number;
  runsInThisThread: number;
  threadStartedAt: number;
  robotLoadedAt: number;
  /** When the run asked for a worker, in the same clock. */
  requestedAt: number;
  lines: string[];
}

async function runOnce(limits: WorkerLimits = LIMITS, flowsModule: string = FLOWS_MODULE): Promise<ThreadReport> {
  const job: WorkerJob = { kind: 'robot', flowId: THREAD_FLOW_ID, flowsModule, inputs: {}, files: {}, startedAt: new Date().toISOString() };
  const lines: string[] = [];
  const requestedAt = performance.timeOrigin + performance.now();
  const worker = startRunWorker(job, [], limits, { log: (_level: RobotLogLevel, text: string) => lines.push(text), progress: () => undefined });
  const outcome = await worker.outcome;
  if (outcome.kind !== 'result') throw new Error(`the run ended as ${JSON.stringify(outcome)}`);
  return { ...(outcome.result.summary as Omit<ThreadReport, 'requestedAt' | 'lines'>), requestedAt, lines };
}

afterAll(() => stopSpareWorker());

describe('run workers', () => {
  it('give each run a thread of its own, started before the run asked for it, with the robot loaded only then', async () => {
    const first = await runOnce();
    // The next run's thread started as this one took its own; it is waiting once it has the flows list.
    expect(await spareWorkerReady()).toBe(true);
    const second = await runOnce();
    expect(await spareWorkerReady()).toBe(true);
    const third = await runOnce();
    for (const report of [first, second, third]) {
      expect(report.runsInThisThread).toBe(1);
      expect(report.lines).toEqual([`Hilo ${report.threadId}`]);
    }
    expect(new Set([first.threadId, second.threadId, third.threadId]).size).toBe(3);
    for (const warm of [second, third]) {
      // The thread was up before the run asked for it...
      expect(warm.threadStartedAt).toBeLessThan(warm.requestedAt);
      // ...and loaded the robot only once the job named it.
      expect(warm.robotLoadedAt).toBeGreaterThanOrEqual(warm.requestedAt);
    }
  });

  it('start a new thread for a run whose limits or flows the spare was not started with, or once the spare is stopped', async () => {
    await runOnce();
    const otherLimits = await runOnce({ ...LIMITS, memoryMb: 96 });
    expect(otherLimits.threadStartedAt).toBeGreaterThanOrEqual(otherLimits.requestedAt);
    await stopSpareWorker();
    expect(await spareWorkerReady()).toBe(false);
    const afterStop = await runOnce({ ...LIMITS, memoryMb: 96 });
    expect(afterStop.threadStartedAt).toBeGreaterThanOrEqual(afterStop.requestedAt);
    const otherFlows = await runOnce({ ...LIMITS, memoryMb: 96 }, `${FLOWS_MODULE}?otra-copia`);
    expect(otherFlows.threadStartedAt).toBeGreaterThanOrEqual(otherFlows.requestedAt);
    expect(otherFlows.runsInThisThread).toBe(1);
  });
});
