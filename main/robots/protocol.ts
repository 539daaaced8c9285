import type { RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { StagedOutput } from './staged-outputs.ts';

/**
 * The messages between the runtime (main process or agent) and one run's child process
 * (robot-process.ts), over Node's IPC channel with 'advanced' serialization, so that output bytes and
 * the certificate's PKCS#12 cross as Uint8Array.
 */

/** What the child needs to run the robot: plain data only. */
export interface RobotProcessJob {
  runId: string;
  flowId: string;
  inputs: Record<string, unknown>;
  /** Each FileUpload input's files (bytes), by input key. */
  files: Readonly<Record<string, readonly RobotFile[]>>;
  /** ISO-8601. */
  startedAt: string;
  /** A module exporting `desktopFlows` (tests); null for the app's own resources/flows. */
  robotsModule: string | null;
  /** This installation's overrides of the flow's settings.json (merged over it, key by key). */
  settingsOverrides: Record<string, unknown>;
  /** The Chromium to drive; null picks the platform's default (see sdk/browser.ts). */
  chromiumPath: string | null;
  /**
   * The run's folder, where the outputs the robot streams (context.output) are written under hidden
   * names (staged-outputs.ts); the runtime always sends it. Without it the robot has no context.output
   * and returns its outputs as bytes.
   */
  outputFolder?: string;
}

export type ParentMessage =
  /**
   * To a spare process forked ahead of any run (runtime.ts): load the robots and, with `browser`, launch
   * the browser now (no context, no certificate), so that the next run skips that wait.
   */
  | { type: 'prepare'; robotsModule: string | null; chromiumPath: string | null; browser: boolean }
  | { type: 'start'; job: RobotProcessJob }
  | { type: 'abort' }
  | { type: 'certificate'; requestId: number; pfx: Uint8Array; passphrase: string }
  | { type: 'certificate-refused'; requestId: number; message: string };

export type ChildMessage =
  /** The child is up and waits for its job (what the time to the first log line is measured from). */
  | { type: 'ready' }
  /** A spare has done what 'prepare' asked (or given up on it: the run then does it itself). */
  | { type: 'prepared' }
  /** The robot's module is loaded and its run() called. */
  | { type: 'robot-started' }
  | { type: 'log'; level: RobotLogLevel; text: string }
  | { type: 'progress'; successful: number; total: number }
  /** The result, and the outputs the robot streamed and closed, in the order it opened them. */
  | { type: 'result'; result: RobotResult; streamed: StagedOutput[] }
  /** The robot threw, or could not be found or loaded. */
  | { type: 'failed'; message: string }
  /** openBrowser asks for the PKCS#12 of the certificate chosen in a Certificate input. */
  | { type: 'certificate-request'; requestId: number; fingerprint: string };
