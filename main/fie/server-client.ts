import { z } from 'zod/mini';
import { DEVICE_AUTH_SCHEME, DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import { apiErrorSchema } from '#shared/api/errors.ts';
import type { FieUploadResponse } from '#shared/api/fie.ts';
import { FIE_MAX_ENTRIES_PER_REQUEST, FIE_UPLOAD_MAX_FILES, fiePaths, fieListResponseSchema, fieUploadResponseSchema } from '#shared/api/fie.ts';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { a3SyncRecordWithEntrySchema } from '#shared/bridge/contract.ts';
import { DeviceError, unreachableMessage } from '../device/errors.ts';

/** The FIE API (shared/api/fie.ts) as this PC calls it with its device token. */
export interface FieServerClient {
  /**
   * Uploads in batches the server takes (FIE_UPLOAD_MAX_FILES), and adds their answers up. A file read
   * from the SILTRA folder or downloaded from FIER says so (`?source=siltra|fier`), so the server keeps
   * where it came from; one batch holds files of one source.
   */
  upload(files: readonly FieFileToUpload[]): Promise<FieUploadResponse>;
  a3Records(entryIds: readonly string[]): Promise<A3SyncRecordWithEntry[]>;
  a3Results(body: { runId?: string; results: readonly { entryId: string; state: 'synced' | 'error'; error: string | null }[] }): Promise<number>;
  /** The firm's entries not yet in A3 (enabled types only: dop, nac and jub are never synced), and their documents. */
  pendingEntries(): Promise<{ entryIds: string[]; fieIds: string[] }>;
}

export interface FieFileToUpload {
  name: string;
  bytes: Uint8Array;
  /** Where this PC fetched it (main/siltra FetchedFieFile.source); none for a file the user picked. */
  source?: 'folder' | 'fier';
}

/** The upload's `source` query (shared/api/fie.ts fieUploadQuerySchema) for a fetched file. */
const UPLOAD_SOURCE = { folder: 'siltra', fier: 'fier' } as const;

const a3RecordsResponseSchema = z.object({ records: z.array(a3SyncRecordWithEntrySchema) });
const a3ResultsResponseSchema = z.object({ updated: z.number() });

export interface FieServerClientOptions {
  serverUrl: string;
  deviceToken: string;
  fetch: typeof fetch;
  requestTimeoutMs?: number;
}

export function fieServerClient(options: FieServerClientOptions): FieServerClient {
  const { serverUrl } = options;
  const timeoutMs = options.requestTimeoutMs ?? 120_000;

  async function call<S extends z.ZodMiniType>(method: 'GET' | 'POST', path: string, schema: S, body?: FormData | unknown): Promise<z.infer<S>> {
    let response: Response;
    try {
      const json = body !== undefined && !(body instanceof FormData);
      response = await options.fetch(new URL(path, serverUrl), {
        method,
        headers: { authorization: `${DEVICE_AUTH_SCHEME} ${options.deviceToken}`, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new DeviceError('unreachable', unreachableMessage(serverUrl));
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const message = apiErrorSchema.safeParse(answer).data?.message;
      if (response.status === 401) throw new DeviceError('token-refused', message ?? DEVICE_TOKEN_INVALID_MESSAGE);
      if (response.status >= 500) throw new DeviceError('unreachable', `El servidor ${serverUrl} no está disponible ahora (${response.status}).`);
      throw new DeviceError('server', message ?? `El servidor ${serverUrl} ha rechazado la petición (${response.status}).`);
    }
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new DeviceError('server', `El servidor ${serverUrl} ha respondido algo inesperado: ¿es un servidor de AutoAsesor actualizado?`);
    return parsed.data as z.infer<S>;
  }

  return {
    async upload(files) {
      const total: FieUploadResponse = { results: [], processed: 0, failed: 0, alreadyAdded: 0 };
      const bySource = new Map<FieFileToUpload['source'], FieFileToUpload[]>();
      for (const file of files) {
        const group = bySource.get(file.source);
        if (group) group.push(file);
        else bySource.set(file.source, [file]);
      }
      for (const [source, group] of bySource) {
        const path = source === undefined ? fiePaths.upload : `${fiePaths.upload}?${new URLSearchParams({ source: UPLOAD_SOURCE[source] }).toString()}`;
        for (let start = 0; start < group.length; start += FIE_UPLOAD_MAX_FILES) {
          const form = new FormData();
          for (const file of group.slice(start, start + FIE_UPLOAD_MAX_FILES)) {
            form.append('files', new Blob([new Uint8Array(file.bytes)], { type: 'application/octet-stream' }), file.name);
          }
          const answer = await call('POST', path, fieUploadResponseSchema, form);
          total.results.push(...answer.results);
          total.processed += answer.processed;
          total.failed += answer.failed;
          total.alreadyAdded += answer.alreadyAdded;
        }
      }
      return total;
    },
    async a3Records(entryIds) {
      const records: A3SyncRecordWithEntry[] = [];
      for (let start = 0; start < entryIds.length; start += FIE_MAX_ENTRIES_PER_REQUEST) {
        const answer = await call('POST', fiePaths.a3Records, a3RecordsResponseSchema, { entryIds: entryIds.slice(start, start + FIE_MAX_ENTRIES_PER_REQUEST) });
        records.push(...answer.records);
      }
      return records;
    },
    async a3Results({ runId, results }) {
      let updated = 0;
      for (let start = 0; start < results.length; start += FIE_MAX_ENTRIES_PER_REQUEST) {
        const chunk = results.slice(start, start + FIE_MAX_ENTRIES_PER_REQUEST);
        updated += (await call('POST', fiePaths.a3Results, a3ResultsResponseSchema, { ...(runId === undefined ? {} : { runId }), results: chunk })).updated;
      }
      return updated;
    },
    async pendingEntries() {
      const { items } = await call('GET', `${fiePaths.fie}?a3=pending`, fieListResponseSchema);
      const entryIds: string[] = [];
      const fieIds = new Set<string>();
      for (const document of items) {
        for (const entry of document.entries) {
          if (entry.disabled || entry.a3sync !== 'pending') continue;
          entryIds.push(entry._id);
          fieIds.add(document._id);
        }
      }
      return { entryIds, fieIds: [...fieIds] };
    },
  };
}
