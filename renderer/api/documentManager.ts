import { z } from 'zod/mini';
import { documentManagerPaths, managedDocumentsPageSchema } from '#shared/api/documentmanager.ts';
import type { ManagedDocumentsPage, ManagedDocumentsQuery } from '#shared/api/documentmanager.ts';
import { baseApi } from './baseApi.ts';

/** GET companies' answer (shared/api/documentmanager.ts describes it in the path's comment). */
const documentCompaniesSchema = z.object({ items: z.array(z.object({ company: z.string(), documents: z.number() })) });
export type DocumentCompany = z.infer<typeof documentCompaniesSchema>['items'][number];

/** The list query as the URL of GET documentmanager: only the parameters that are set. */
export function managedDocumentsUrl(query: ManagedDocumentsQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${documentManagerPaths.documents}?${text}` : documentManagerPaths.documents;
}

/** The document manager's calls (shared/api/documentmanager.ts): read-only, so one tag is plenty. */
export const documentManagerApi = baseApi.enhanceEndpoints({ addTagTypes: ['ManagedDocuments'] }).injectEndpoints({
  endpoints: (build) => ({
    managedDocuments: build.query<ManagedDocumentsPage, ManagedDocumentsQuery>({
      query: (query) => managedDocumentsUrl(query),
      transformResponse: (response: unknown) => managedDocumentsPageSchema.parse(response),
      providesTags: ['ManagedDocuments'],
    }),
    managedDocumentCompanies: build.query<DocumentCompany[], void>({
      query: () => documentManagerPaths.companies,
      transformResponse: (response: unknown) => documentCompaniesSchema.parse(response).items,
      providesTags: ['ManagedDocuments'],
    }),
  }),
});

export const { useManagedDocumentsQuery, useManagedDocumentCompaniesQuery } = documentManagerApi;
