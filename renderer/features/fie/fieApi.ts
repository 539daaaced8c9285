import { z } from 'zod/mini';
import { fieListResponseSchema, fiePaths, reconciliationRowSchema } from '#shared/api/fie.ts';
import type { FieDocumentView, FieListQuery, ReconciliationRow } from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
import { prepareFieSearch } from '#shared/fie/list-filter.ts';
import { baseApi } from '../../api/baseApi.ts';

const reconciliationResponseSchema = z.object({ items: z.array(reconciliationRowSchema) });

/** The list query as the URL of GET fie: only the filters that are set. */
export function fieListUrl(query: FieListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${fiePaths.fie}?${text}` : fiePaths.fie;
}

/**
 * The FIE module's JSON calls (shared/api/fie.ts). The multipart upload and the workbook download go
 * through fieTransfer.ts instead: the base query sends and reads JSON only.
 */
export const fieApi = baseApi.enhanceEndpoints({ addTagTypes: ['Fie'] }).injectEndpoints({
  endpoints: (build) => ({
    fieDocuments: build.query<FieDocumentView[], FieListQuery>({
      query: (query) => fieListUrl(query),
      transformResponse: (response: unknown) => {
        const documents = fieListResponseSchema.parse(response).items;
        // While the list loads anyway: the searches typed next then answer in a millisecond or two.
        prepareFieSearch(documents);
        return documents;
      },
      providesTags: ['Fie'],
    }),
    fieReconciliation: build.query<ReconciliationRow[], void>({
      query: () => fiePaths.reconciliation,
      transformResponse: (response: unknown) => reconciliationResponseSchema.parse(response).items,
      providesTags: ['Fie'],
    }),
    /** 204 on success; the caller hides the document only then. */
    deleteFie: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(fiePaths.document, { id }), method: 'DELETE' }),
      transformResponse: () => undefined,
      invalidatesTags: ['Fie'],
    }),
  }),
});

export const { useFieDocumentsQuery, useFieReconciliationQuery, useDeleteFieMutation } = fieApi;

/** After an upload, a SILTRA fetch or an A3 sync the lists are stale: refetch whatever is on screen. */
export const fieChanged = () => fieApi.util.invalidateTags(['Fie']);
