import type { RobotJob, RobotMilestone, RobotOutcome, RobotRuntime } from './types.ts';

export interface RobotLaunchTimings {
  /** ms from start() to each milestone the run reached (see RobotMilestone). */
  milestones: Partial<Record<RobotMilestone, number>>;
  /** start() -> the robot's first log line (the launch goal: ≤ 500 ms on the agent); null when it logged nothing. */
  firstLogLineMs: number | null;
  outcome: RobotOutcome;
}

/**
 * One run, timed (for scripts/bench): how long from start() until the child is up, the robot runs, its
 * first log line arrives, and the run is over. Log lines and progress are not kept.
 */
export async function measureRobotLaunch(runtime: RobotRuntime, job: RobotJob): Promise<RobotLaunchTimings> {
  const milestones: Partial<Record<RobotMilestone, number>> = {};
  const robot = runtime.start(job, {
    log: () => undefined,
    progress: () => undefined,
    timing: (milestone, elapsedMs) => {
      milestones[milestone] ??= elapsedMs;
    },
  });
  const outcome = await robot.outcome;
  return { milestones, firstLogLineMs: milestones['first-log'] ?? null, outcome };
}
