/**
 * The contract between a runtime (the server's run process, server/modules/runs/run-process.ts, and the
 * desktop's, main/robots/robot-process.ts) and a flow's robot module (resources/flows/<id>/robot.ts,
 * `export default robot satisfies Robot`). A robot gets its inputs as plain data and its files as bytes
 * (or a stream of them), reports through callbacks, and writes its outputs through `context.output`
 * (chunk by chunk, to storage as they are written) or returns small ones as bytes; it never touches the
 * database, the network or the disk of the server, so it runs in a child process of its own and is
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

/**
 * An output file written as it is made (RobotContext.output): each chunk goes to the run's storage as it
 * comes, so a large result never sits whole in the robot's memory. Await each write before the next
 * (the runtime's backpressure). The file counts only once closed: an output left open (the robot
 * stopped, failed or threw) is thrown away, as is every output of a run that did not end with a result.
 */
export interface RobotOutput {
  write(chunk: Uint8Array): Promise<void>;
  /** Every byte is written: the file becomes one of the run's outputs. */
  close(): Promise<void>;
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
  /**
   * Opens an output of this name, written in chunks (RobotOutput). The run's outputs are the closed
   * ones in the order they were opened, then the result's `outputs`; names are made unique as stored.
   * Every runtime gives it (the server's and the desktop's run processes, _lib/testing.ts); a context
   * built by hand may not, and a robot then returns its bytes (_lib/outputs.ts openOutput does both).
   */
  output?(name: string): RobotOutput;
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
  /** Outputs given whole, as bytes (small files); those written through `context.output` come before them. */
  outputs: RobotFile[];
  /** Figures the OutputSection shows (counts per column, entries decoded...), JSON-safe. */
  summary?: Record<string, string | number | boolean>;
  /** One sentence for the user when result is not Success. */
  message?: string;
}

export interface Robot {
  run(context: RobotContext): Promise<RobotResult>;
}
