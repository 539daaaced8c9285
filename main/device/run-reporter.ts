import type { DeviceRunOutcome, DeviceRunReport, LeasedRun } from '#shared/api/devices.ts';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { RobotOutcome } from '../robots/types.ts';
import type { DeviceLinkService } from './connection.ts';
import { DeviceError } from './errors.ts';
import { outcomeForServer } from './run-files.ts';
import type { DeviceServerClient } from './server-client.ts';
import type { DeviceLinkRecord } from './token-store.ts';

const MAX_LINES_PER_REPORT = 500;
const MAX_LINE_CHARS = 2000;
/** Lines kept while the server cannot be reached; older ones are dropped (and counted) beyond this. */
const MAX_PENDING_LINES = 5000;
const FINISH_ATTEMPTS = 5;

/** For a wait nothing cuts short. */
export const neverAborted = new AbortController().signal;

export interface RunReporterOptions {
  client: DeviceServerClient;
  record: DeviceLinkRecord;
  run: LeasedRun;
  /** Told when the server no longer knows this PC's token. */
  link: Pick<DeviceLinkService, 'tokenRefused'>;
  /** A new log line reaches the server within this. */
  lineFlushMs: number;
  /** The first wait between attempts to send the end; it doubles each time. */
  retryFirstMs: number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export type RunReporter = ReturnType<typeof createRunReporter>;

/**
 * Lines and progress go to the server in batches: within lineFlushMs of a new line, and at least
 * every leaseMs/3 (which also renews the lease). One report at a time; a failed one keeps its lines.
 */
export function createRunReporter({ client, record, run, link, lineFlushMs, retryFirstMs, sleep }: RunReporterOptions) {
  let pending: DeviceRunReport['lines'] = [];
  let dropped = 0;
  let successfulIterations = 0;
  let totalIterations = 0;
  let inFlight: Promise<boolean> | null = null;
  let again = false;
  let soon: NodeJS.Timeout | null = null;
  /** The server no longer holds this run for us (409) or no longer knows our token (401): report and finish nothing more. */
  let lost: 'lease' | 'token' | null = null;
  let stopRelayed = false;
  let stopRobot: (by: 'user' | 'device') => void = () => undefined;

  const heartbeat = setInterval(() => void flush(), Math.max(50, Math.floor(run.leaseMs / 3)));
  heartbeat.unref();

  const takeBatch = () => {
    const lines = pending.splice(0, MAX_LINES_PER_REPORT);
    if (dropped > 0) {
      lines.unshift({ level: 'warn', text: `(${dropped} líneas del registro no se han podido enviar al servidor)` });
      dropped = 0;
    }
    return lines;
  };

  /** Sends what is pending; false when the server could not be reached (the lines stay pending). */
  const flush = (): Promise<boolean> => {
    if (soon) clearTimeout(soon);
    soon = null;
    if (lost) return Promise.resolve(false);
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      do {
        again = false;
        const lines = takeBatch();
        try {
          const answer = await client.report(run.runId, { lines, successfulIterations, totalIterations });
          if (answer.stop && !stopRelayed) {
            stopRelayed = true;
            stopRobot('user');
          }
          if (pending.length > 0) again = true;
        } catch (error) {
          if (error instanceof DeviceError && (error.reason === 'conflict' || error.reason === 'token-refused')) {
            lose(error.reason === 'conflict' ? 'lease' : 'token');
            return false;
          }
          pending = [...lines, ...pending];
          return false;
        }
      } while (again && !lost);
      return true;
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const lose = (what: 'lease' | 'token') => {
    lost = what;
    pending = [];
    // The server has closed this run (or forgotten this PC): a robot still working would be wasted.
    stopRobot('device');
    if (what === 'token') void link.tokenRefused(record);
  };

  return {
    onStop(stop: (by: 'user' | 'device') => void) {
      stopRobot = stop;
    },
    /** Whether a call for this run (a file download) was answered as a lost lease or a forgotten token; if so, nothing more is reported. */
    refused(error: unknown): boolean {
      if (!(error instanceof DeviceError) || (error.reason !== 'conflict' && error.reason !== 'token-refused')) return false;
      lose(error.reason === 'conflict' ? 'lease' : 'token');
      return true;
    },
    line(level: DeviceRunReport['lines'][number]['level'], text: string) {
      if (lost) return;
      pending.push({ level, text: text.slice(0, MAX_LINE_CHARS) });
      if (pending.length > MAX_PENDING_LINES) {
        dropped += pending.length - MAX_PENDING_LINES;
        pending.splice(0, pending.length - MAX_PENDING_LINES);
      }
      soon ??= setTimeout(() => void flush(), lineFlushMs);
    },
    progress(successful: number, total: number) {
      successfulIterations = Math.max(0, Math.trunc(successful));
      totalIterations = Math.max(0, Math.trunc(total));
      soon ??= setTimeout(() => void flush(), lineFlushMs);
    },
    /** After the robot: the last lines, then the outcome. Returns a line for the host's log when the run could not be closed. */
    async end(outcome: RobotOutcome): Promise<string | null> {
      clearInterval(heartbeat);
      for (let attempt = 0; attempt < FINISH_ATTEMPTS && !lost && (pending.length > 0 || dropped > 0 || attempt === 0); attempt += 1) {
        if (await flush()) break;
        await sleep(retryFirstMs * 2 ** attempt, neverAborted);
      }
      if (soon) clearTimeout(soon);
      if (lost === 'lease') return `Dispositivo: la ejecución ${run.runId} ya no era de este equipo (el servidor la cerró); no se envía su resultado.`;
      if (lost === 'token') return `Dispositivo: ${DEVICE_TOKEN_INVALID_MESSAGE}`;
      const body = await outcomeForServer(outcome, run).catch(
        (error: unknown): DeviceRunOutcome => ({
          kind: 'failed',
          message: `No se han podido leer los resultados del robot en este equipo: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2000),
        }),
      );
      for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt += 1) {
        try {
          await client.finish(run.runId, body);
          return null;
        } catch (error) {
          if (error instanceof DeviceError && error.reason === 'token-refused') await link.tokenRefused(record);
          if (!(error instanceof DeviceError) || error.reason !== 'unreachable') {
            return `Dispositivo: el servidor no ha aceptado el final de la ejecución ${run.runId}: ${error instanceof Error ? error.message : String(error)}`;
          }
          if (attempt < FINISH_ATTEMPTS - 1) await sleep(retryFirstMs * 2 ** attempt, neverAborted);
        }
      }
      return `Dispositivo: no se ha podido enviar el final de la ejecución ${run.runId}; el servidor la cerrará al vencer su plazo.`;
    },
  };
}
