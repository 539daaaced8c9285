import type { RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';

/** What the run worker gets at start (workerData): plain data and the files' bytes (transferred). */
export interface WorkerJob {
  flowId: string;
  /** A module exporting `builtInFlows` (tests); null for the app's own resources/flows. */
  flowsModule: string | null;
  inputs: Record<string, unknown>;
  files: Record<string, RobotFile[]>;
  /** ISO-8601. */
  startedAt: string;
}

export type WorkerMessage =
  | { type: 'log'; level: RobotLogLevel; text: string }
  | { type: 'progress'; successful: number; total: number }
  | { type: 'result'; result: RobotResult }
  | { type: 'failed'; message: string };

export type ParentMessage = { type: 'abort' };
