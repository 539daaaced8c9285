import type { RedResult, SubmissionProblem } from '#shared/api/altas.ts';
import { importAltasIntoA3 } from '../a3/altas-import.ts';
import { BridgeFailure } from '../bridge/failure.ts';
import { requireLinkRecord, type DeviceLinkReader } from '../device/linked-record.ts';
import { altasServerClient, type A3AltaResult, type AltasServerClient } from './server-client.ts';
import type { AltasDesktopSettings } from './settings.ts';
import type { AltasDesktop, AltasLog, RedRegistrar } from './types.ts';

export interface AltasDesktopOptions {
  /** The device link: the server and token the records, rows and results go through. */
  link: DeviceLinkReader;
  settings: () => Promise<AltasDesktopSettings>;
  /** RED Online's ATR01 or SILTRA's AFI with these settings (main/altas/red/registrar.ts). */
  registrar: (settings: AltasDesktopSettings) => RedRegistrar;
  fetch: typeof fetch;
  now: () => Date;
}

export const AFI_FOLDER_NOT_SET = 'No has elegido la carpeta de SILTRA: elígela en la configuración para escribir el fichero AFI.';
export const AFI_AUTHORIZATION_NOT_SET = 'Falta la autorización RED de la asesoría (8 dígitos) para escribir el fichero AFI: añádela en la configuración.';
export const NOT_ON_SERVER = 'Esta alta ya no está en el servidor: puede que se haya borrado.';
export const NOTHING_TO_IMPORT = '';

const quiet: AltasLog = () => undefined;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Results in the order the ids came; an id the server named neither way is reported as gone. */
function inIdsOrder<T extends { submissionId: string }>(ids: readonly string[], results: readonly T[], missing: (id: string) => T): T[] {
  const byId = new Map(results.map((result) => [result.submissionId, result]));
  return [...new Set(ids)].map((id) => byId.get(id) ?? missing(id));
}

/** Runs each call after the one before it has ended (whatever its outcome). */
function oneAtATime<A extends unknown[], R>(work: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (...args) => {
    const next = last.then(() => work(...args), () => work(...args));
    last = next.catch(() => undefined);
    return next;
  };
}

export function createAltasDesktop(options: AltasDesktopOptions): AltasDesktop {
  async function server(): Promise<AltasServerClient> {
    const record = await requireLinkRecord(options.link);
    return altasServerClient({ serverUrl: record.serverUrl, deviceToken: record.deviceToken, fetch: options.fetch });
  }

  /** Each problem the server found (missing data) is an error result, reported like RED's. */
  const problemResult = (problem: SubmissionProblem): RedResult => ({ submissionId: problem.submissionId, state: 'error', message: problem.message });

  return {
    async pending() {
      return (await server()).pending();
    },

    // One RED batch at a time on this PC (the screen, a scheduled sync-altas and the autopilot may ask at
    // once): the second asks the server after the first reported, so nothing is filed in RED twice.
    syncToRed: oneAtATime(async (ids, certificate, { channel = 'red-online', log = quiet, signal } = {}) => {
      const client = await server();
      const settings = await options.settings();
      if (channel === 'afi' && !settings.siltraInstallFolder) throw new BridgeFailure('UNAVAILABLE', AFI_FOLDER_NOT_SET);
      if (channel === 'afi' && !settings.redAuthorizationKey) throw new BridgeFailure('UNAVAILABLE', AFI_AUTHORIZATION_NOT_SET);
      const { records, problems } = await client.redRecords(ids);
      for (const problem of problems) log('warn', `${problem.title}: ${problem.message}`);

      let registered: RedResult[] = [];
      let afiFile: string | undefined;
      if (records.length > 0) {
        const registrar = options.registrar(settings);
        try {
          if (channel === 'afi') {
            log('info', `Escribiendo el fichero AFI con ${records.length} alta(s) para SILTRA.`);
            ({ file: afiFile, results: registered } = await registrar.writeAfi(records, { log }));
          } else {
            log('info', `Registrando ${records.length} alta(s) en RED Online.`);
            registered = await registrar.register(records, certificate, { log, signal });
          }
        } catch (error) {
          if (signal?.aborted) throw error;
          throw error instanceof BridgeFailure ? error : new BridgeFailure('FAILED', messageOf(error));
        }
      }

      const reported = [...registered, ...problems.map(problemResult)];
      if (reported.length > 0) await client.redResults(reported);
      const results = inIdsOrder(ids, reported, (id): RedResult => ({ submissionId: id, state: 'error', message: NOT_ON_SERVER }));
      const done = results.filter((result) => result.state === 'registered').length;
      const failed = results.filter((result) => result.state === 'error').length;
      log(failed > 0 ? 'warn' : 'info', `Altas registradas: ${done}; con error: ${failed}${afiFile ? `; fichero AFI: ${afiFile}` : ''}.`);
      return {
        results: results.map(({ submissionId, state, message }) => ({ submissionId, state, message })),
        registered: done,
        failed,
        ...(afiFile === undefined ? {} : { afiFile }),
      };
    }),

    syncToA3: oneAtATime(async (ids, { log = quiet, signal } = {}) => {
      const client = await server();
      const settings = await options.settings();
      const { rows, problems } = await client.a3Rows(ids);
      for (const problem of problems) log('warn', `${problem.title}: ${problem.message}`);

      let imported: A3AltaResult[] = [];
      let importFile = NOTHING_TO_IMPORT;
      if (rows.length > 0) {
        log('info', `Importando ${rows.length} alta(s) en A3 (202 – MA).`);
        const outcome = await importAltasIntoA3(rows, { folder: settings.a3ImportDir, timeoutMs: settings.a3AnswerTimeoutMs, now: options.now, signal }).catch((error: unknown) => {
          if (signal?.aborted) throw error;
          throw new BridgeFailure('FAILED', messageOf(error));
        });
        importFile = outcome.importFile;
        imported = outcome.results;
      }

      const reported = [...imported, ...problems.map((problem): A3AltaResult => ({ submissionId: problem.submissionId, state: 'error', error: problem.message }))];
      if (reported.length > 0) await client.a3Results(reported);
      const results = inIdsOrder(ids, reported, (id): A3AltaResult => ({ submissionId: id, state: 'error', error: NOT_ON_SERVER }));
      const synced = results.filter((result) => result.state === 'synced').length;
      for (const result of results) if (result.error) log('warn', `${result.submissionId}: ${result.error}`);
      log('info', `Altas sincronizadas con A3: ${synced}; con error: ${results.length - synced}.`);
      return { importFile, results, synced, failed: results.length - synced };
    }),
  };
}
