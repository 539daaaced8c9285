import * as XLSX from 'xlsx';
import type { Robot, RobotContext, RobotFile, RobotLogLevel, RobotResult } from '#shared/flows/robot.ts';
import type { DesktopRobot, DesktopRobotContext } from './desktop.ts';
import { concatenated } from './outputs.ts';

/** What a robot did in a test run: its result and everything it reported on the way. */
export interface RecordedRun {
  /** As the robot returned it, with the outputs it wrote through `context.output` (closed ones) put first, as a runtime stores them. */
  result: RobotResult;
  logs: { level: RobotLogLevel; text: string }[];
  progress: [successful: number, total: number][];
  /** Each output opened through `context.output`: how many chunks it took and whether it was closed. */
  streamed: { name: string; chunks: number; closed: boolean }[];
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

interface StreamedOutput {
  name: string;
  chunks: Uint8Array[];
  closed: boolean;
}

/** A run context that records what the robot reports, with an abort signal the test can trip. */
function recordingContext(options: TestRunOptions): { context: RobotContext; logs: RecordedRun['logs']; progress: RecordedRun['progress']; outputs: StreamedOutput[] } {
  const outputs: StreamedOutput[] = [];
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
    output(name) {
      const output: StreamedOutput = { name, chunks: [], closed: false };
      outputs.push(output);
      return {
        async write(chunk) {
          if (output.closed) throw new Error(`La salida ${name} ya está cerrada`);
          // A copy: a writer may reuse its buffer once the write has resolved.
          output.chunks.push(chunk.slice());
        },
        async close() {
          output.closed = true;
        },
      };
    },
  };
  return { context, logs, progress, outputs };
}

/** The result as a runtime stores it: the closed streamed outputs first, then the ones returned as bytes. */
function recorded(result: RobotResult, outputs: readonly StreamedOutput[], logs: RecordedRun['logs'], progress: RecordedRun['progress']): RecordedRun {
  const streamed = outputs.filter((output) => output.closed).map(({ name, chunks }) => ({ name, data: concatenated(chunks) }));
  return {
    result: { ...result, outputs: [...streamed, ...result.outputs] },
    logs,
    progress,
    streamed: outputs.map(({ name, chunks, closed }) => ({ name, chunks: chunks.length, closed })),
  };
}

/** Runs a robot as the runtime would, with an abort signal the test can trip. For robot tests. */
export async function runRobot(robot: Robot, options: TestRunOptions = {}): Promise<RecordedRun> {
  const { context, logs, progress, outputs } = recordingContext(options);
  return recorded(await robot.run(context), outputs, logs, progress);
}

/** The same for a desktop robot: the test says how the browser opens and what the settings are. */
export async function runDesktopRobot(robot: DesktopRobot, options: DesktopTestRunOptions): Promise<RecordedRun> {
  const { context, logs, progress, outputs } = recordingContext(options);
  return recorded(await robot.run({ ...context, openBrowser: options.openBrowser, settings: options.settings }), outputs, logs, progress);
}

/** A cell of an output workbook as a test compares it: type and value, and on request its shown text and whether it is formatted as text. */
export interface CellView {
  t: string;
  v: unknown;
  w?: string | undefined;
  z?: '@' | undefined;
}

export interface WorkbookCells {
  names: string[];
  sheets: Record<string, Record<string, CellView>>;
  /** The first sheet's merged ranges. */
  merges: unknown;
}

/** Every non-blank cell of every sheet of an .xlsx, read back with SheetJS, for comparing two outputs. */
export function workbookCells(bytes: Uint8Array, { shown = false, textFormat = false } = {}): WorkbookCells {
  const workbook = XLSX.read(bytes, { type: 'array', cellNF: true });
  const sheets: WorkbookCells['sheets'] = {};
  for (const name of workbook.SheetNames) {
    const cells: Record<string, CellView> = {};
    for (const [address, cell] of Object.entries(workbook.Sheets[name] ?? {})) {
      if (address.startsWith('!')) continue;
      const { t, v, w, z } = cell as XLSX.CellObject;
      if (t === 'z') continue;
      cells[address] = { t, v, ...(shown && { w }), ...(textFormat && { z: z === '@' ? '@' : undefined }) };
    }
    sheets[name] = cells;
  }
  return { names: workbook.SheetNames, sheets, merges: workbook.Sheets[workbook.SheetNames[0] ?? '']?.['!merges'] };
}

/** Where two outputs differ, sheet by sheet: a different number of cells, or a cell of `expected` that `actual` has otherwise. Empty when alike. */
export function cellDifferences(actual: WorkbookCells, expected: WorkbookCells): string[] {
  const differences: string[] = [];
  for (const name of expected.names) {
    const [a, b] = [actual.sheets[name] ?? {}, expected.sheets[name] ?? {}];
    if (Object.keys(a).length !== Object.keys(b).length) differences.push(`${name}: ${Object.keys(a).length} cells, expected ${Object.keys(b).length}`);
    for (const [address, cell] of Object.entries(b)) {
      if (JSON.stringify(a[address]) !== JSON.stringify(cell)) differences.push(`${name}!${address}: ${JSON.stringify(a[address])}, expected ${JSON.stringify(cell)}`);
    }
  }
  return differences;
}
