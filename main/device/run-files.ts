import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { format } from 'date-fns';
import type { DeviceRunOutcome, LeasedRun } from '#shared/api/devices.ts';
import { DEVICE_FINISH_OUTPUTS_MAX_BYTES } from '#shared/api/devices.ts';
import { fileInputValueSchema } from '#shared/api/flows.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import type { RobotOutcome } from '../robots/types.ts';
import { DeviceError } from './errors.ts';
import type { DeviceServerClient } from './server-client.ts';

/**
 * A desktop run's files on this PC: the folder it writes to, the FileUpload inputs it downloads before
 * its robot starts, and its outcome as the server's finish call takes it (with the outputs when asked).
 */

/** `<outputRoot>/<flowId>/<yyyy-MM-dd HH.mm.ss> <runId first 8>`, in this PC's local time (its user opens it). */
export function jobFolderFor(outputRoot: string, run: Pick<LeasedRun, 'flowId' | 'runId' | 'startedAt'>): string {
  const started = new Date(run.startedAt);
  const stamp = Number.isNaN(started.getTime()) ? 'sin-fecha' : format(started, 'yyyy-MM-dd HH.mm.ss');
  // The ids come from the server: keep them to one plain folder name each, whatever they hold.
  return join(outputRoot, plainName(run.flowId), `${stamp} ${plainName(run.runId.slice(0, 8))}`);
}

function plainName(text: string): string {
  const plain = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return plain.length > 0 ? plain : '_';
}

/** A run's inputs as its robot gets them: the FileUpload ones as bytes in `files`, the rest in `inputs`. */
export interface RunFiles {
  inputs: Record<string, unknown>;
  files: Record<string, RobotFile[]>;
}

export const FILES_DOWNLOAD_FAILED_MESSAGE = 'No se han podido descargar en este equipo los archivos del robot';
const DOWNLOAD_ATTEMPTS = 3;

/**
 * Downloads every file of the run's FileUpload inputs (names from the inputs, in the user's order),
 * one at a time, before the robot starts; a server out of reach is tried again (1 s, 2 s). A failure
 * throws a DeviceError whose Spanish message names the file; a 409 or 401 comes through as it is.
 */
export async function downloadRunFiles(
  client: Pick<DeviceServerClient, 'runFile'>,
  run: Pick<LeasedRun, 'runId' | 'inputs' | 'fileInputs'>,
  signal: AbortSignal,
  wait: (ms: number) => Promise<void>,
): Promise<RunFiles> {
  const inputs: Record<string, unknown> = { ...run.inputs };
  const files: Record<string, RobotFile[]> = {};
  for (const key of run.fileInputs) {
    const value = inputs[key] ?? [];
    delete inputs[key];
    const parsed = fileInputValueSchema.safeParse(value);
    if (!parsed.success) throw new DeviceError('server', `${FILES_DOWNLOAD_FAILED_MESSAGE}: la entrada «${key}» no trae archivos válidos.`);
    files[key] = [];
    for (const { uploadId, name } of parsed.data) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          files[key].push({ name, data: await client.runFile(run.runId, uploadId, signal) });
          break;
        } catch (error) {
          if (signal.aborted) throw error;
          if (!(error instanceof DeviceError)) throw new DeviceError('server', `${FILES_DOWNLOAD_FAILED_MESSAGE}: «${name}»: ${String(error)}`);
          if (error.reason === 'conflict' || error.reason === 'token-refused') throw error;
          // The run fails here: no 'se vuelve a intentar' in its message.
          if (error.reason !== 'unreachable' || attempt >= DOWNLOAD_ATTEMPTS) throw new DeviceError(error.reason, `${FILES_DOWNLOAD_FAILED_MESSAGE}: «${name}»: ${error.message.replace(/ Se vuelve a intentar en unos segundos\.$/, '')}`);
          await wait(1000 * 2 ** (attempt - 1));
          if (signal.aborted) throw error;
        }
      }
    }
  }
  return { inputs, files };
}

/** The robot's outcome as the finish call takes it; outputs travel (base64) only when the run asks for them. */
export async function outcomeForServer(outcome: RobotOutcome, run: Pick<LeasedRun, 'sendOutputToServer'>): Promise<DeviceRunOutcome> {
  switch (outcome.kind) {
    case 'result': {
      const base = {
        kind: 'result' as const,
        result: outcome.result,
        usageUnits: outcome.usageUnits,
        ...(outcome.message === undefined ? {} : { message: outcome.message.slice(0, 2000) }),
        ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
        outputFolder: outcome.outputFolder,
        outputFileNames: outcome.outputFileNames,
      };
      if (!run.sendOutputToServer) return { ...base, outputs: [] };
      let bytes = 0;
      for (const name of outcome.outputFileNames) bytes += (await stat(join(outcome.outputFolder, name))).size;
      // They travel as multipart files (deviceServerClient's finishBody), DEVICE_FINISH_OUTPUTS_MAX_BYTES in all.
      if (bytes > DEVICE_FINISH_OUTPUTS_MAX_BYTES) {
        return {
          kind: 'failed',
          message: `Los archivos de resultado ocupan demasiado para enviarlos al servidor (${Math.round(bytes / 1024 / 1024)} MB). Siguen en el dispositivo, en ${outcome.outputFolder}.`.slice(0, 2000),
        };
      }
      const outputs = await Promise.all(
        outcome.outputFileNames.map(async (name) => ({ name, base64: (await readFile(join(outcome.outputFolder, name))).toString('base64') })),
      );
      return { ...base, outputs };
    }
    case 'failed':
    case 'crashed':
      return { kind: outcome.kind, message: outcome.message.slice(0, 2000) };
    case 'timeout':
      return { kind: 'timeout' };
    case 'stopped':
      return { kind: 'stopped', by: outcome.by };
  }
}
