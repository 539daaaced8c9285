import type { UploadColumns } from '#shared/api/flows.ts';
import type { RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';

/** What the run worker gets at start (workerData): plain data and the files' bytes (transferred). */
export interface WorkerJob {
  kind: 'robot';
  flowId: string;
  /** A module exporting `builtInFlows` (tests); null for the app's own resources/flows. */
  flowsModule: string | null;
  inputs: Record<string, unknown>;
  files: Record<string, RobotFile[]>;
  /** ISO-8601. */
  startedAt: string;
}

/** Reading a large upload's columns, which would hold the server's event loop for seconds. */
export interface ColumnsJob {
  kind: 'columns';
  name: string;
  data: Uint8Array;
}

export type WorkerMessage =
  | { type: 'log'; level: RobotLogLevel; text: string }
  | { type: 'progress'; successful: number; total: number }
  | { type: 'result'; result: RobotResult }
  | { type: 'failed'; message: string }
  | { type: 'columns'; columns: UploadColumns | null };

export type ParentMessage = { type: 'abort' };
