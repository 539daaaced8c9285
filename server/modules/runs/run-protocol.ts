import type { RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { StagedOutput } from '../storage/staged-outputs.ts';

/**
 * The messages between the server and the child process of one run (run-process.ts). The job names
 * its uploads by path, so their bytes are read by the child instead of being copied through the pipe;
 * the outputs the robot writes through context.output go the other way on disk, into `outputFolder`
 * (storage/staged-outputs.ts), and the result names the closed ones.
 */
export interface RunProcessJob {
  flowId: string;
  /** A module exporting `builtInFlows` (tests); null for the app's own resources/flows. */
  flowsModule: string | null;
  inputs: Record<string, unknown>;
  /** FileUpload inputs by key: each upload's name as the user gave it and its path in storage. */
  files: Record<string, { name: string; path: string }[]>;
  /** ISO-8601. */
  startedAt: string;
  /**
   * An empty folder, only this run's, where its outputs are written as the robot makes them (best in
   * STORAGE_DIR, so that storing them is a rename). Absent: startRunProcess makes one in the system's
   * temporary folder.
   */
  outputFolder?: string;
}

export type ParentMessage = { type: 'start'; job: RunProcessJob } | { type: 'abort' };

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'log'; level: RobotLogLevel; text: string }
  | { type: 'progress'; successful: number; total: number }
  /** The robot's result, and the outputs it wrote and closed (in `outputFolder`), in the order it opened them. */
  | { type: 'result'; result: RobotResult; streamed: StagedOutput[] }
  /** The robot threw, or could not be loaded. */
  | { type: 'failed'; message: string }
  /** An error nobody caught (outside the robot's promise): the process ends after saying it. */
  | { type: 'crashed'; message: string };
