import type { RobotEvents, RobotJob, RobotOutcome, RobotRuntime, RunningRobot } from '../../robots/types.ts';

/** A robot the test drives by hand: it logs, reports progress and ends when told. */
export interface FakeRobot extends RunningRobot {
  job: RobotJob;
  events: RobotEvents;
  /** Every stop asked of it, in order. */
  stops: ('user' | 'device')[];
  end(outcome: RobotOutcome): void;
}

/**
 * Stands in for main/robots' child-process runtime: the device runner only needs start(), the events
 * and the outcome. A stop ends the robot as the real runtime does (after its grace period).
 */
export function fakeRuntime(): RobotRuntime & { robots: FakeRobot[]; nextRobot(): Promise<FakeRobot> } {
  const robots: FakeRobot[] = [];
  const waiters: ((robot: FakeRobot) => void)[] = [];
  let taken = 0;
  let live = 0;
  return {
    robots,
    /** The robots in the order they started, one per call (waits for the next one to start). */
    nextRobot: () => {
      const started = robots[taken];
      taken += 1;
      return started ? Promise.resolve(started) : new Promise((resolve) => waiters.push(resolve));
    },
    running: () => live,
    start(job, events) {
      let settle!: (outcome: RobotOutcome) => void;
      let ended = false;
      const outcome = new Promise<RobotOutcome>((resolve) => {
        settle = resolve;
      });
      live += 1;
      const end = (result: RobotOutcome) => {
        if (ended) return;
        ended = true;
        live -= 1;
        settle(result);
      };
      const robot: FakeRobot = {
        runId: job.runId,
        job,
        events,
        stops: [],
        outcome,
        end,
        stop(by) {
          robot.stops.push(by);
          setTimeout(() => end({ kind: 'stopped', by }), 5);
        },
      };
      robots.push(robot);
      waiters.shift()?.(robot);
      return robot;
    },
  };
}
