import type { RobotEvents, RobotJob, RobotOutcome, RobotRuntime, RunningRobot } from './types.ts';

/** Runs one local process on this PC; it stops between its steps once `signal` is aborted. */
export type LocalProcessRun<P extends string> = (job: RobotJob, localProcess: P, events: RobotEvents, signal: AbortSignal) => Promise<RobotOutcome>;

/**
 * A runtime that runs itself the local processes `handles` accepts (spec §3 Scheduled flow
 * localProcess: FIE, altas, DEHÚ) and hands every other job to `inner`. A stop ends the run at once
 * (nothing more is reported) and aborts the process's signal; a request already sent to the server
 * finishes on its own. A process that throws fails the run with its message.
 */
export function withLocalProcessRunner<P extends string>(inner: RobotRuntime, handles: (localProcess: string) => localProcess is P, run: LocalProcessRun<P>): RobotRuntime {
  let running = 0;
  return {
    start(job, events): RunningRobot {
      const name = job.localProcess;
      if (!name || !handles(name)) return inner.start(job, events);
      const aborting = new AbortController();
      let stop: (by: 'user' | 'device') => void = () => undefined;
      const stopped = new Promise<RobotOutcome>((resolve) => {
        stop = (by) => {
          aborting.abort();
          resolve({ kind: 'stopped', by });
        };
      });
      running += 1;
      const work = Promise.resolve()
        .then(() => run(job, name, events, aborting.signal))
        .catch((error: unknown): RobotOutcome => ({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }));
      const outcome = Promise.race([work, stopped]).finally(() => {
        running -= 1;
      });
      return { runId: job.runId, outcome, stop: (by) => stop(by) };
    },
    running: () => inner.running() + running,
  };
}
