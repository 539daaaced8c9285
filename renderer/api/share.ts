import { z } from 'zod/mini';
import { objectSharesSchema, sharedObjectSchema, sharePaths } from '#shared/api/share.ts';
import type { ObjectShares, ShareEditBody, ShareGrantsBody, ShareKind, SharedObject } from '#shared/api/share.ts';
import { pathFor } from '#shared/api/flows.ts';
import { baseApi } from './baseApi.ts';

export interface ShareTarget {
  kind: ShareKind;
  id: string;
}

const sharedListSchema = z.object({ items: z.array(sharedObjectSchema) });
const clonedSchema = z.object({ kind: z.string(), id: z.string() });

/**
 * Sharing of objects with colleagues (shared/api/share.ts). A change of grants or a clone also moves
 * the lists that show access ('DocTemplates' and the forms helper's lists refetch through 'Shares').
 */
export const shareApi = baseApi.enhanceEndpoints({ addTagTypes: ['Shares', 'DocTemplates'] }).injectEndpoints({
  endpoints: (build) => ({
    objectShares: build.query<ObjectShares, ShareTarget>({
      query: ({ kind, id }) => pathFor(sharePaths.object, { kind, id }),
      transformResponse: (response: unknown) => objectSharesSchema.parse(response),
      providesTags: (_result, _error, { kind, id }) => [{ type: 'Shares', id: `${kind}:${id}` }],
    }),
    saveObjectShares: build.mutation<ObjectShares, ShareTarget & ShareGrantsBody>({
      query: ({ kind, id, grants }) => ({ url: pathFor(sharePaths.object, { kind, id }), method: 'PUT', body: { grants } }),
      transformResponse: (response: unknown) => objectSharesSchema.parse(response),
      invalidatesTags: (_result, _error, { kind, id }) => [{ type: 'Shares', id: `${kind}:${id}` }, { type: 'Shares', id: 'LIST' }, 'DocTemplates'],
    }),
    editObjectShare: build.mutation<ObjectShares, ShareTarget & ShareEditBody>({
      query: ({ kind, id, ...body }) => ({ url: pathFor(sharePaths.edit, { kind, id }), method: 'PATCH', body }),
      transformResponse: (response: unknown) => objectSharesSchema.parse(response),
      invalidatesTags: (_result, _error, { kind, id }) => [{ type: 'Shares', id: `${kind}:${id}` }, { type: 'Shares', id: 'LIST' }, 'DocTemplates'],
    }),
    cloneShared: build.mutation<ShareTarget, ShareTarget>({
      query: ({ kind, id }) => ({ url: pathFor(sharePaths.clone, { kind, id }), method: 'POST' }),
      transformResponse: (response: unknown) => clonedSchema.parse(response) as ShareTarget,
      invalidatesTags: [{ type: 'Shares', id: 'LIST' }, 'DocTemplates'],
    }),
    sharedByMe: build.query<SharedObject[], ShareKind | undefined>({
      query: (kind) => (kind ? `${sharePaths.own}?kind=${encodeURIComponent(kind)}` : sharePaths.own),
      transformResponse: (response: unknown) => sharedListSchema.parse(response).items,
      providesTags: [{ type: 'Shares', id: 'LIST' }],
    }),
    sharedWithMe: build.query<SharedObject[], ShareKind | undefined>({
      query: (kind) => (kind ? `${sharePaths.me}?kind=${encodeURIComponent(kind)}` : sharePaths.me),
      transformResponse: (response: unknown) => sharedListSchema.parse(response).items,
      providesTags: [{ type: 'Shares', id: 'LIST' }],
    }),
  }),
});

export const {
  useObjectSharesQuery, useSaveObjectSharesMutation, useEditObjectShareMutation, useCloneSharedMutation, useSharedByMeQuery, useSharedWithMeQuery,
} = shareApi;
