import type { Robot, RobotContext, RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { DesktopRobot, DesktopRobotContext } from './desktop.ts';

/** What a robot did in a test run: its result and everything it reported on the way. */
export interface RecordedRun {
  result: RobotResult;
  logs: { level: RobotLogLevel; text: string }[];
  progress: [successful: number, total: number][];
}

export interface TestRunOptions {
  inputs?: Record<string, unknown>;
  files?: Record<string, readonly RobotFile[]>;
  startedAt?: Date;
  /** Stop the run (as the stop button does) once it has reported this many iterations. */
  stopAfter?: number;
}

export interface DesktopTestRunOptions extends TestRunOptions {
  openBrowser: DesktopRobotContext['openBrowser'];
  settings: DesktopRobotContext['settings'];
}

/** A run context that records what the robot reports, with an abort signal the test can trip. */
function recordingContext(options: TestRunOptions): { context: RobotContext; logs: RecordedRun['logs']; progress: RecordedRun['progress'] } {
  const logs: RecordedRun['logs'] = [];
  const progress: RecordedRun['progress'] = [];
  const listeners: (() => void)[] = [];
  const signal = {
    aborted: false,
    addEventListener(_type: 'abort', listener: () => void) {
      listeners.push(listener);
    },
  };
  const context: RobotContext = {
    inputs: options.inputs ?? {},
    files: options.files ?? {},
    startedAt: options.startedAt ?? new Date('2025-03-14T09:30:00Z'),
    signal,
    log: (level, text) => logs.push({ level, text }),
    progress(successful, total) {
      progress.push([successful, total]);
      if (options.stopAfter !== undefined && successful >= options.stopAfter && !signal.aborted) {
        signal.aborted = true;
        for (const listener of listeners) listener();
      }
    },
  };
  return { context, logs, progress };
}

/** Runs a robot as the runtime would, with an abort signal the test can trip. For robot tests. */
export async function runRobot(robot: Robot, options: TestRunOptions = {}): Promise<RecordedRun> {
  const { context, logs, progress } = recordingContext(options);
  const result = await robot.run(context);
  return { result, logs, progress };
}

/** The same for a desktop robot: the test says how the browser opens and what the settings are. */
export async function runDesktopRobot(robot: DesktopRobot, options: DesktopTestRunOptions): Promise<RecordedRun> {
  const { context, logs, progress } = recordingContext(options);
  const result = await robot.run({ ...context, openBrowser: options.openBrowser, settings: options.settings });
  return { result, logs, progress };
}
