import { createHash } from 'node:crypto';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { SILTRA_NO_FIE_TITLE, siltraNoResultsMessage } from '#shared/fie/messages.ts';
import { importIntoA3 } from '../a3/import.ts';
import { BridgeFailure } from '../bridge/failure.ts';
import { requireLinkRecord, type DeviceLinkReader } from '../device/linked-record.ts';
import { fierClient } from '../siltra/fier-client.ts';
import { readSiltraFolder, type FetchedFieFile } from '../siltra/folder.ts';
import { fieServerClient, type FieServerClient } from './server-client.ts';
import type { FieDesktopSettings } from './settings.ts';

export type FieFetchSource = 'folder' | 'fier' | 'both';
export type FieFetchResult = BridgeResult<'GetFieFromSiltra'>;
export type A3SyncResult = BridgeResult<'RunFieRobot'>;
export type PendingSyncResult = A3SyncResult & { workers: Record<string, string | null> };

export interface FieFetchRequest {
  /** The certificate's fingerprint: FIER needs it; the folder does not. */
  certificate: string | null;
  from: string;
  to: string;
  source: FieFetchSource;
}

/** The FIE work this PC does for the /fie screen and the autopilot: fetch from SILTRA/FIER, import into A3. */
export interface FieDesktop {
  /** Reads the FIE files of from..to and uploads them to the server with the device token. */
  fetchFromSiltra(request: FieFetchRequest): Promise<FieFetchResult>;
  /** Imports the records into A3 through its folder and reports each entry's state to the server. */
  importToA3(records: readonly A3SyncRecordWithEntry[], runId?: string, signal?: AbortSignal): Promise<A3SyncResult>;
  /** The firm's pending entries (enabled types) -> A3 -> results, with each entry's worker NIF; null when nothing is pending. */
  syncPending(runId?: string, signal?: AbortSignal): Promise<PendingSyncResult | null>;
}

export interface FieDesktopOptions {
  /** The device link: the server and token the uploads and results go to. */
  link: DeviceLinkReader;
  /** CertificateSource.clientCertificate: the certificate and key in memory, for FIER's mutual TLS. */
  certificates: { clientCertificate(fingerprint: string): Promise<{ pfx: Buffer; passphrase: string }> };
  settings: () => Promise<FieDesktopSettings>;
  fetch: typeof fetch;
  now: () => Date;
  /** TLS server name for FIER when it differs from the URL's host (the stand-in in tests). */
  fierServername?: string;
}

export const SILTRA_FOLDER_NOT_SET = 'No has elegido la carpeta de ficheros recibidos de SILTRA: elígela en la configuración.';
export const FIER_NOT_SET = 'No está configurada la dirección de FIER (FIER_URL).';

export function createFieDesktop(options: FieDesktopOptions): FieDesktop {
  async function server(): Promise<FieServerClient> {
    const record = await requireLinkRecord(options.link);
    return fieServerClient({ serverUrl: record.serverUrl, deviceToken: record.deviceToken, fetch: options.fetch });
  }

  async function fromFier(settings: FieDesktopSettings, certificate: string, from: string, to: string): Promise<FetchedFieFile[]> {
    if (!settings.fierUrl) throw new BridgeFailure('UNAVAILABLE', FIER_NOT_SET);
    const { pfx, passphrase } = await options.certificates.clientCertificate(certificate).catch((error: unknown) => {
      throw new BridgeFailure('FAILED', error instanceof Error ? error.message : 'No se ha podido usar el certificado elegido.');
    });
    const client = fierClient({ baseUrl: settings.fierUrl, pfx, passphrase, ca: settings.fierCa, servername: options.fierServername });
    const files: FetchedFieFile[] = [];
    for (const file of await client.list(from, to)) files.push(await client.download(file));
    return files;
  }

  async function importToA3(records: readonly A3SyncRecordWithEntry[], runId?: string, signal?: AbortSignal): Promise<A3SyncResult> {
    const client = await server();
    const settings = await options.settings();
    const outcome = await importIntoA3(records, { folder: settings.a3ImportDir, timeoutMs: settings.a3AnswerTimeoutMs, now: options.now, signal }).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      throw new BridgeFailure('FAILED', error instanceof Error ? error.message : String(error));
    });
    if (outcome.results.length > 0) await client.a3Results({ ...(runId === undefined ? {} : { runId }), results: outcome.results });
    const synced = outcome.results.filter((result) => result.state === 'synced').length;
    return { importFile: outcome.importFile, results: outcome.results, synced, failed: outcome.results.length - synced };
  }

  return {
    async fetchFromSiltra({ certificate, from, to, source }) {
      const settings = await options.settings();
      const client = await server();
      const files: FetchedFieFile[] = [];
      const problems: string[] = [];
      const wantsFolder = source !== 'fier';
      const wantsFier = source !== 'folder';
      // 'both' asks every source that is set up; one that fails is told, unless it was the only one.
      const attempts: { run: () => Promise<FetchedFieFile[]> }[] = [];
      if (wantsFolder) {
        if (settings.siltraFolder) attempts.push({ run: () => readSiltraFolder(settings.siltraFolder!, from, to) });
        else if (source === 'folder') throw new BridgeFailure('UNAVAILABLE', SILTRA_FOLDER_NOT_SET);
      }
      if (wantsFier) {
        if (settings.fierUrl && certificate) attempts.push({ run: () => fromFier(settings, certificate, from, to) });
        else if (source === 'fier') throw new BridgeFailure('UNAVAILABLE', settings.fierUrl ? 'Elige un certificado para consultar FIER.' : FIER_NOT_SET);
      }
      if (attempts.length === 0) throw new BridgeFailure('UNAVAILABLE', SILTRA_FOLDER_NOT_SET);
      for (const attempt of attempts) {
        try {
          files.push(...(await attempt.run()));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (attempts.length === 1) throw error instanceof BridgeFailure ? error : new BridgeFailure('FAILED', message);
          problems.push(message);
        }
      }
      if (problems.length === attempts.length) throw new BridgeFailure('FAILED', problems.join(' '));

      // The same file may be in the folder and in FIER: it is uploaded once.
      const seen = new Set<string>();
      const unique = files.filter((file) => {
        const hash = createHash('sha256').update(file.bytes).digest('hex');
        if (seen.has(hash)) return false;
        seen.add(hash);
        return true;
      });
      const base = { from, to, found: unique.length, ...(problems.length > 0 ? { problems } : {}) };
      if (unique.length === 0) {
        return { ...base, upload: { results: [], processed: 0, failed: 0, alreadyAdded: 0 }, noResults: { title: SILTRA_NO_FIE_TITLE, text: siltraNoResultsMessage(from, to) } };
      }
      return { ...base, upload: await client.upload(unique), noResults: null };
    },
    importToA3,
    async syncPending(runId, signal) {
      const client = await server();
      const { entryIds } = await client.pendingEntries();
      if (entryIds.length === 0) return null;
      const records = await client.a3Records(entryIds);
      if (records.length === 0) return null;
      const workers = Object.fromEntries(records.map((record) => [record.entryId, record.dniEmpleado]));
      return { ...(await importToA3(records, runId, signal)), workers };
    },
  };
}
