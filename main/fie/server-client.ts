import { z } from 'zod/mini';
import type { FieUploadResponse } from '#shared/api/fie.ts';
import {
  FIE_MAX_ENTRIES_PER_REQUEST, FIE_RESULTS_BODY_LIMIT, FIE_RESULTS_PER_PAGE, FIE_UPLOAD_MAX_FILES, fiePaths, fieListResponseSchema, fieUploadResponseSchema,
} from '#shared/api/fie.ts';
import { jsonPages } from '#shared/api/pages.ts';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { a3SyncRecordWithEntrySchema } from '#shared/bridge/contract.ts';
import { deviceApiCall, type DeviceApiOptions } from '../device/api-call.ts';

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

export type FieServerClientOptions = DeviceApiOptions;

export function fieServerClient(options: FieServerClientOptions): FieServerClient {
  const call = deviceApiCall(options);

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
      // In pages the server takes (issue 39: no big JSON body), by count and by bytes.
      const body = (chunk: typeof results) => ({ ...(runId === undefined ? {} : { runId }), results: chunk });
      for (const chunk of jsonPages(results, FIE_RESULTS_PER_PAGE, FIE_RESULTS_BODY_LIMIT, body)) {
        if (chunk.length > 0) updated += (await call('POST', fiePaths.a3Results, a3ResultsResponseSchema, body(chunk))).updated;
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
