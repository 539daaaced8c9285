import type { UploadColumns } from '#shared/api/flows.ts';
import type { RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';

/**
 * What a run worker gets at start (workerData): only where the flows come from, so it can be started
 * ahead of need (server/modules/runs/pool.ts). Its one job comes later, in a 'run' message.
 */
export interface SpareStart {
  kind: 'spare';
  /** A module exporting `builtInFlows` (tests); null for the app's own resources/flows. */
  flowsModule: string | null;
}

/** A run worker's one job (the 'run' message): plain data and the files' bytes (transferred). */
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
  /** A spare has loaded the flows list and waits for its job. */
  | { type: 'ready' }
  | { type: 'log'; level: RobotLogLevel; text: string }
  | { type: 'progress'; successful: number; total: number }
  | { type: 'result'; result: RobotResult }
  | { type: 'failed'; message: string }
  | { type: 'columns'; columns: UploadColumns | null };

export type ParentMessage = { type: 'run'; job: WorkerJob } | { type: 'abort' };
