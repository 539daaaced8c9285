import type { RobotFile, RobotLogLevel, RobotResultName } from '#shared/flows/robot.ts';
import type { DesktopRobot } from '../../resources/flows/_lib/desktop.ts';

/**
 * The desktop robot runtime's contract (main/robots/): main/device/ hands it a leased run, it runs the
 * flow's robot in a child process and reports back. Output files are written to `outputFolder` on this
 * PC; the device runner decides whether they also go to the server.
 */
export interface RobotJob {
  runId: string;
  flowId: string;
  /** The inputs as checked by the server at launch (without the FileUpload ones: their bytes are in `files`). */
  inputs: Record<string, unknown>;
  /** Each FileUpload input's files, by input key, in the order the user picked them; none when the flow takes no uploads. */
  files?: Readonly<Record<string, readonly RobotFile[]>>;
  timeLimitSeconds: number;
  /** ISO-8601: the run's start, given to the robot as context.startedAt. */
  startedAt: string;
  /** Created by the runtime if missing; the robot's outputs are written here. */
  outputFolder: string;
  /** A schedule's local process (LeasedRun.localProcess): main/fie/local-processes.ts runs it instead of the robot. */
  localProcess?: string | null;
}

export interface RobotEvents {
  log(level: RobotLogLevel, text: string): void;
  progress(successful: number, total: number): void;
  /** Milestones of the run, in ms since start() (the bench's launch -> first log line). Optional. */
  timing?(milestone: RobotMilestone, elapsedMs: number): void;
}

/**
 * process-ready: the child is up and asks for its job; robot-started: the robot's module is loaded and
 * running; first-log: its first log line arrived; finished: the outcome is known and the child is gone.
 */
export type RobotMilestone = 'process-ready' | 'robot-started' | 'first-log' | 'finished';

export type RobotOutcome =
  | {
      kind: 'result';
      result: RobotResultName;
      usageUnits: number;
      message?: string;
      summary?: Record<string, string | number | boolean>;
      outputFolder: string;
      /** Names as written in outputFolder (normalised and unique). */
      outputFileNames: string[];
    }
  | { kind: 'failed'; message: string }
  | { kind: 'crashed'; message: string }
  | { kind: 'timeout' }
  | { kind: 'stopped'; by: 'user' | 'device' };

export interface RunningRobot {
  readonly runId: string;
  readonly outcome: Promise<RobotOutcome>;
  /** Asks the robot to stop (abort signal), then ends its process after a grace period. */
  stop(by: 'user' | 'device'): void;
}

/**
 * One entry of a robots module's `desktopFlows` (resources/flows/index.ts; tests give their own): the
 * flow's id, its settings.json, and its robot, loaded in the run's child process only.
 */
export interface DesktopFlowEntry {
  id: string;
  settings: Record<string, unknown>;
  loadRobot(): Promise<DesktopRobot>;
}

export interface RobotRuntime {
  start(job: RobotJob, events: RobotEvents): RunningRobot;
  running(): number;
}
