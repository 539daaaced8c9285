import {
  ALTAS_MAX_IDS_PER_REQUEST, ALTAS_RESULTS_BODY_LIMIT, a3RowsResponseSchema, altasPaths, pendingSummarySchema, redRecordsResponseSchema, updatedResponseSchema,
  type A3AltaRow, type PendingSummary, type RedAltaRecord, type RedResult, type SubmissionProblem,
} from '#shared/api/altas.ts';
import { jsonPages } from '#shared/api/pages.ts';
import { deviceApiCall, type DeviceApiOptions } from '../device/api-call.ts';

export interface A3AltaResult {
  submissionId: string;
  state: 'synced' | 'error';
  error: string | null;
}

/** The altas API (shared/api/altas.ts) as this PC's robots call it with the device token. */
export interface AltasServerClient {
  pending(): Promise<PendingSummary>;
  /** The RED robot's input; a submission the server cannot build a record from comes back as a problem. */
  redRecords(ids: readonly string[]): Promise<{ records: RedAltaRecord[]; problems: SubmissionProblem[] }>;
  redResults(results: readonly RedResult[]): Promise<number>;
  a3Rows(ids: readonly string[]): Promise<{ rows: A3AltaRow[]; problems: SubmissionProblem[] }>;
  a3Results(results: readonly A3AltaResult[]): Promise<number>;
}

/** Answers in pages the server takes: ALTAS_MAX_IDS_PER_REQUEST and ALTAS_RESULTS_BODY_LIMIT bytes (issue 39); none for none. */
function resultPages<T>(results: readonly T[]): T[][] {
  return results.length === 0 ? [] : jsonPages(results, ALTAS_MAX_IDS_PER_REQUEST, ALTAS_RESULTS_BODY_LIMIT, (page) => ({ results: page }));
}

/** In slices the server takes (ALTAS_MAX_IDS_PER_REQUEST). */
function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += ALTAS_MAX_IDS_PER_REQUEST) out.push(items.slice(start, start + ALTAS_MAX_IDS_PER_REQUEST));
  return out;
}

export function altasServerClient(options: DeviceApiOptions): AltasServerClient {
  const call = deviceApiCall(options);
  return {
    pending: () => call('GET', altasPaths.pending, pendingSummarySchema),
    async redRecords(ids) {
      const total = { records: [] as RedAltaRecord[], problems: [] as SubmissionProblem[] };
      for (const chunk of slices(ids)) {
        const answer = await call('POST', altasPaths.redRecords, redRecordsResponseSchema, { ids: chunk });
        total.records.push(...answer.records);
        total.problems.push(...answer.problems);
      }
      return total;
    },
    async redResults(results) {
      let updated = 0;
      for (const chunk of resultPages(results)) updated += (await call('POST', altasPaths.redResults, updatedResponseSchema, { results: chunk })).updated;
      return updated;
    },
    async a3Rows(ids) {
      const total = { rows: [] as A3AltaRow[], problems: [] as SubmissionProblem[] };
      for (const chunk of slices(ids)) {
        const answer = await call('POST', altasPaths.a3Rows, a3RowsResponseSchema, { ids: chunk });
        total.rows.push(...answer.rows);
        total.problems.push(...answer.problems);
      }
      return total;
    },
    async a3Results(results) {
      let updated = 0;
      for (const chunk of resultPages(results)) updated += (await call('POST', altasPaths.a3Results, updatedResponseSchema, { results: chunk })).updated;
      return updated;
    },
  };
}
