import { z } from 'zod/mini';
import { FIE_LIST_PAGE, fieListPageSchema, fieMatchingIdsSchema, fiePaths, reconciliationRowSchema } from '#shared/api/fie.ts';
import type { FieListPage, FieListQuery, FieMatchingIds, ReconciliationRow } from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
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
    /**
     * The list a page at a time (issue 43, 6): every filter goes to the server, which answers
     * FIE_LIST_PAGE entries and the counts; the next page is asked for as the list is scrolled to its end.
     */
    fieList: build.infiniteQuery<FieListPage, FieListQuery, number>({
      infiniteQueryOptions: {
        initialPageParam: 0,
        getNextPageParam: (lastPage) => lastPage.nextOffset ?? undefined,
      },
      query: ({ queryArg, pageParam }) => fieListUrl({ ...queryArg, limit: FIE_LIST_PAGE, offset: pageParam }),
      transformResponse: (response: unknown) => fieListPageSchema.parse(response),
      providesTags: ['Fie'],
    }),
    /** 'Seleccionar todos los que coinciden': the ids of every parte the filters match that can go to A3, loaded or not. */
    fieMatchingIds: build.query<FieMatchingIds, FieListQuery>({
      query: (query) => fieListUrl({ ...query, select: 'ids' }),
      transformResponse: (response: unknown) => fieMatchingIdsSchema.parse(response),
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

export const { useFieListInfiniteQuery, useLazyFieMatchingIdsQuery, useFieReconciliationQuery, useDeleteFieMutation } = fieApi;

/** After an upload, a SILTRA fetch or an A3 sync the lists are stale: refetch whatever is on screen. */
export const fieChanged = () => fieApi.util.invalidateTags(['Fie']);
