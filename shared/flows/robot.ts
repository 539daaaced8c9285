/**
 * The contract between a runtime (the server's run process, server/modules/runs/run-process.ts, and the
 * desktop's, main/robots/robot-process.ts) and a flow's robot module (resources/flows/<id>/robot.ts,
 * `export default robot satisfies Robot`). A robot gets its inputs as plain data and its files as bytes
 * (or a stream of them), reports through callbacks, and returns its outputs as bytes; it never touches
 * the database, the network or the disk of the server, so it runs in a child process of its own and is
 * tested with real files and nothing else.
 */

export type RobotLogLevel = 'info' | 'warn' | 'error';

export interface RobotFile {
  name: string;
  /**
   * The whole file. A runtime that can read from disk may make it lazy (loaded on first access), so a
   * robot that uses `stream` never holds the whole file.
   */
  data: Uint8Array;
  /**
   * The file's bytes in chunks, read as they are taken (each call starts again from the first byte), for
   * files too big to hold: a robot that reads this and `size` never touches `data`. Optional: a runtime
   * that already has the bytes (tests, the desktop's IPC) leaves it out, and the robot reads `data`
   * (resources/flows/_lib/files.ts fileChunks does both). Never set on outputs.
   */
  stream?(): AsyncIterable<Uint8Array>;
  /** The file's length in bytes, given with `stream` so that it can be known without reading `data`. */
  size?: number;
}

/** The part of AbortSignal a robot uses (shared/ has neither DOM nor Node types; both signals fit). */
export interface RobotAbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
}

export interface RobotContext {
  /** Non-file inputs by key, as the launcher sent them (already checked against the flow's inputs). */
  inputs: Readonly<Record<string, unknown>>;
  /** Files of each FileUpload input, by input key, in the order the user picked them. */
  files: Readonly<Record<string, readonly RobotFile[]>>;
  /** One line of the run's log (Spanish: the advisor reads it in the history). */
  log(level: RobotLogLevel, text: string): void;
  /** Iterations done so far (successful) out of the total known. */
  progress(successful: number, total: number): void;
  /** Aborted when the user stops the run or its time limit passes; check it between iterations. */
  signal: RobotAbortSignal;
  /** The run's start, for names and dates in outputs (robots do not read the clock themselves). */
  startedAt: Date;
}

/**
 * How the robot ended. WrongInput: the run was fine but the data was not usable (an empty workbook,
 * no FIE decoded); the launcher shows it as a result error (242). Fail: the robot could not do its work.
 */
export type RobotResultName = 'Success' | 'Fail' | 'WrongInput';

export interface RobotResult {
  result: RobotResultName;
  /** Units of the flow's usageMeasureUnit consumed; cost = usageUnits × usageRatio. */
  usageUnits: number;
  outputs: RobotFile[];
  /** Figures the OutputSection shows (counts per column, entries decoded...), JSON-safe. */
  summary?: Record<string, string | number | boolean>;
  /** One sentence for the user when result is not Success. */
  message?: string;
}

export interface Robot {
  run(context: RobotContext): Promise<RobotResult>;
}
