import { fork } from 'node:child_process';
import { childCommand } from '../child-command.ts';
import { formatBytes } from '#shared/files/size.ts';
import { capExceeded, FileRefusal, unreadable, type FileRefusalKind } from './errors.ts';
import type { Inspection } from './inspection.ts';
import { INSPECTION_CONCURRENCY, INSPECTION_MEMORY_MB, INSPECTION_TIME_LIMIT_MS } from './limits.ts';

/** What the inspection's process is asked to read (its argument, as JSON). */
export interface InspectionJob {
  path: string;
  name: string;
  type: string;
}

/** What it answers, once, over IPC. */
export type InspectionMessage = { type: 'inspected'; inspection: Inspection } | { type: 'refused'; kind: FileRefusalKind; message: string };

export interface InspectorOptions {
  /** Inspections at once (the rest wait): 2. */
  concurrency: number;
  timeLimitMs: number;
  /** V8 heap of each inspection's process. */
  memoryMb: number;
}

export const DEFAULT_INSPECTOR_OPTIONS: InspectorOptions = { concurrency: INSPECTION_CONCURRENCY, timeLimitMs: INSPECTION_TIME_LIMIT_MS, memoryMb: INSPECTION_MEMORY_MB };

/** How the inspection's process starts (dist/server/inspect-child.js compiled; see childCommand). */
export function inspectionCommand(memoryMb: number, from = import.meta.url, bundles?: string): { entry: string; execArgv: string[] } {
  return childCommand('inspect-child', memoryMb, from, bundles);
}

/** A first-come, first-served limit on how many tasks run at once. */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  get active(): number {
    return this.running;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line.
      if (next) next();
      else this.running -= 1;
    }
  }
}

const STDERR_TAIL_CHARS = 4_096;

/**
 * Inspects stored uploads, each in a child process of its own with a heap and a time limit, at most
 * `concurrency` at once, so one user's twenty files cannot take every core. The caller awaits the
 * answer (its request waits; the server's event loop does not).
 */
export class UploadInspector {
  private readonly limit: ConcurrencyLimit;

  constructor(readonly options: InspectorOptions = DEFAULT_INSPECTOR_OPTIONS) {
    this.limit = new ConcurrencyLimit(options.concurrency);
  }

  /** What the file holds; throws a FileRefusal (cap, unreadable, type). */
  inspect(job: InspectionJob): Promise<Inspection> {
    return this.limit.run(() => this.inspectNow(job));
  }

  private inspectNow(job: InspectionJob): Promise<Inspection> {
    const { timeLimitMs, memoryMb } = this.options;
    const { entry, execArgv } = inspectionCommand(memoryMb);
    return new Promise<Inspection>((resolve, reject) => {
      const child = fork(entry, [JSON.stringify(job)], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let stderrTail = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)));
      let settled = false;
      const settle = (outcome: { inspection: Inspection } | { refusal: FileRefusal }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        if ('inspection' in outcome) resolve(outcome.inspection);
        else reject(outcome.refusal);
      };
      const timer = setTimeout(() => {
        settle({ refusal: capExceeded(`Leer el archivo lleva más de ${Math.round(timeLimitMs / 1000)} segundos, el máximo. Guárdalo de nuevo o divídelo en archivos más pequeños.`) });
      }, timeLimitMs);
      child.on('message', (message: InspectionMessage) => {
        if (message.type === 'inspected') settle({ inspection: message.inspection });
        else settle({ refusal: new FileRefusal(message.kind, message.message) });
      });
      // Kept for the child's whole life: an 'error' event without a listener would throw in the server.
      child.on('error', (error) => {
        if (child.pid === undefined) settle({ refusal: unreadable(`No se ha podido leer el archivo: ${error.message}`) });
      });
      child.once('close', (code, signal) => {
        const outOfMemory = /heap out of memory|Reached heap limit|Allocation failed/i.test(stderrTail);
        settle({
          refusal: outOfMemory
            ? capExceeded(`Leer el archivo necesita más de ${formatBytes(memoryMb * 1_000_000)} de memoria, el máximo. Guárdalo de nuevo o divídelo en archivos más pequeños.`)
            : unreadable(`No se ha podido leer el archivo (${signal ?? `código ${code}`})`),
        });
      });
    });
  }
}
