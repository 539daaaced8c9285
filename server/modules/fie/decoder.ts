import { fork } from 'node:child_process';
import { formatBytes } from '#shared/files/size.ts';
import { childCommand } from '../../child-command.ts';
import { ConcurrencyLimit } from '../../files/inspector.ts';
import type { FieDecodeJob, FieDecodeMessage, FieDecodeReply } from './decode-protocol.ts';
import type { EntryFacts } from './entries.ts';

export interface FieDecoderOptions {
  /** Files decoded at once by this server process (the rest wait): 2, so one firm's 50 files do not take every core. */
  concurrency: number;
  /** The whole decode of one file, its batches' inserts included. */
  timeLimitMs: number;
  /** V8 heap of each decoding process. */
  memoryMb: number;
  /**
   * Entries per batch sent, and inserted in one transaction: 500, as each commit syncs the WAL (synchronous=FULL),
   * ~14 ms here, and 1,000 commits were most of a 100,000-entry upload once the rows went in at the indexes' end.
   * store.ts gives the event loop a turn between a batch's statements.
   */
  batchSize: number;
}

export const DEFAULT_FIE_DECODER_OPTIONS: FieDecoderOptions = { concurrency: 2, timeLimitMs: 120_000, memoryMb: 1_024, batchSize: 500 };

/** What the decoding found once the last batch was stored. */
export type FieDecodeOutcome = Extract<FieDecodeMessage, { type: 'done' }>;

/** Decodes the file at `path`, handing its entries to `store` batch by batch. */
export type FieDecode = (path: string, format: FieDecodeJob['format'], store: (entries: EntryFacts[]) => Promise<void>) => Promise<FieDecodeOutcome>;

/** Why a file could not be decoded (the reason is Spanish, for the upload's result). */
export class FieDecodeFailure extends Error {}

const STDERR_TAIL_CHARS = 4_096;

/** How the decoding process starts (dist/server/fie-decode-child.js compiled; see childCommand). */
export function fieDecodeCommand(memoryMb: number, from = import.meta.url, bundles?: string): { entry: string; execArgv: string[] } {
  return childCommand('fie-decode-child', memoryMb, from, bundles);
}

/**
 * Decodes uploaded FIE files off the request thread: each in a child process of its own with a heap and
 * a time limit, at most `concurrency` at once. `store` gets the entries in batches and the child waits
 * for it, so a file's entries go into the database as they are decoded; if it throws, the child is killed
 * and the decode rejects with that error.
 */
export class FieDecoder {
  private readonly limit: ConcurrencyLimit;

  constructor(readonly options: FieDecoderOptions = DEFAULT_FIE_DECODER_OPTIONS) {
    this.limit = new ConcurrencyLimit(options.concurrency);
  }

  /**
   * Runs `task` once a decoding slot is free, with the function that decodes in it: uploads waiting their
   * turn start no process and write nothing.
   */
  withSlot<T>(task: (decode: FieDecode) => Promise<T>): Promise<T> {
    return this.limit.run(() => task((path, format, store) => this.decodeNow({ path, format, batchSize: this.options.batchSize }, store)));
  }

  private decodeNow(job: FieDecodeJob, store: (entries: EntryFacts[]) => Promise<void>): Promise<FieDecodeOutcome> {
    const { timeLimitMs, memoryMb } = this.options;
    const { entry, execArgv } = fieDecodeCommand(memoryMb);
    return new Promise<FieDecodeOutcome>((resolve, reject) => {
      const child = fork(entry, [JSON.stringify(job)], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      let stderrTail = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => (stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)));
      let settled = false;
      // Batches are stored one after another, in the order they came.
      let storing = Promise.resolve();
      const settle = (outcome: { done: FieDecodeOutcome } | { error: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        if ('done' in outcome) resolve(outcome.done);
        // A batch being stored finishes first: the caller's transaction then rolls back with nothing in flight.
        else void storing.then(() => reject(outcome.error));
      };
      const timer = setTimeout(() => {
        settle({ error: new FieDecodeFailure(`Leer el FIE lleva más de ${Math.ceil(timeLimitMs / 1000)} s, el máximo. Divídelo en archivos más pequeños.`) });
      }, timeLimitMs);
      child.on('message', (message: FieDecodeMessage) => {
        storing = storing.then(async () => {
          if (settled) return;
          if (message.type === 'batch') {
            await store(message.entries);
            if (!settled && child.connected) child.send({ type: 'continue' } satisfies FieDecodeReply);
          } else if (message.type === 'done') {
            settle({ done: message });
          } else {
            settle({ error: new FieDecodeFailure(message.reason) });
          }
        }).catch((error: unknown) => settle({ error }));
      });
      // Kept for the child's whole life: an 'error' event without a listener would throw in the server.
      child.on('error', (error) => {
        if (child.pid === undefined) settle({ error: new FieDecodeFailure(`No se ha podido leer el archivo: ${error.message}`) });
      });
      child.once('close', (code, signal) => {
        const outOfMemory = /heap out of memory|Reached heap limit|Allocation failed/i.test(stderrTail);
        // Messages already received are stored before the end is judged.
        void storing.then(() =>
          settle({
            error: new FieDecodeFailure(
              outOfMemory
                ? `Leer el FIE necesita más de ${formatBytes(memoryMb * 1_000_000)} de memoria, el máximo. Divídelo en archivos más pequeños.`
                : `No se ha podido leer el archivo (${signal ?? `código ${code}`})`,
            ),
          }),
        );
      });
    });
  }
}
