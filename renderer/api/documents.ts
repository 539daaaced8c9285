import { z } from 'zod/mini';
import {
  categorySchema, documentsPageSchema, documentsPaths, generatedDocumentSchema, starterSchema, templateSchema, templateSummarySchema,
} from '#shared/api/documents.ts';
import type {
  Category, CategoryBody, DocumentFormat, DocumentsPage, GenerateBody, GeneratedDocument, Starter, Template, TemplateBody, TemplateSummary,
} from '#shared/api/documents.ts';
import { pathFor } from '#shared/api/flows.ts';
import { documentStylesSchema } from '#shared/documents/blocks.ts';
import type { DocumentStyles } from '#shared/documents/blocks.ts';
import { baseApi } from './baseApi.ts';

export type TemplateScope = 'all' | 'own' | 'shared';
export interface TemplatesQuery {
  categoryId?: string;
  q?: string;
  scope?: TemplateScope;
}
export interface DocumentsQuery {
  q?: string;
  templateId?: string;
  page?: number;
}
export interface StylePreset {
  key: string;
  name: string;
  styles: DocumentStyles;
}

const itemsOf = <T>(schema: z.ZodMiniType<T>) => z.object({ items: z.array(schema) });
const stylePresetSchema = z.object({ key: z.string(), name: z.string(), styles: documentStylesSchema });

/** A path with the query parameters that are set (empty text and undefined left out). */
export function withQuery(path: string, query: Readonly<Record<string, string | number | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The document creator's calls (shared/api/documents.ts). 'DocCategories' covers the categories (their
 * counts move with the templates), 'DocTemplates' the templates, 'DocDocuments' the generated documents.
 */
export const documentsApi = baseApi.enhanceEndpoints({ addTagTypes: ['DocCategories', 'DocTemplates', 'DocDocuments'] }).injectEndpoints({
  endpoints: (build) => ({
    docCategories: build.query<Category[], void>({
      query: () => documentsPaths.categories,
      transformResponse: (response: unknown) => itemsOf(categorySchema).parse(response).items,
      providesTags: ['DocCategories'],
    }),
    createDocCategory: build.mutation<Category, CategoryBody>({
      query: (body) => ({ url: documentsPaths.categories, method: 'POST', body }),
      transformResponse: (response: unknown) => categorySchema.parse(response),
      invalidatesTags: ['DocCategories'],
    }),
    renameDocCategory: build.mutation<Category, { id: string } & CategoryBody>({
      query: ({ id, ...body }) => ({ url: pathFor(documentsPaths.category, { id }), method: 'PATCH', body }),
      transformResponse: (response: unknown) => categorySchema.parse(response),
      invalidatesTags: ['DocCategories'],
    }),
    deleteDocCategory: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(documentsPaths.category, { id }), method: 'DELETE' }),
      invalidatesTags: ['DocCategories', 'DocTemplates'],
    }),
    docTemplates: build.query<TemplateSummary[], TemplatesQuery>({
      query: (query) => withQuery(documentsPaths.templates, { ...query }),
      transformResponse: (response: unknown) => itemsOf(templateSummarySchema).parse(response).items,
      providesTags: ['DocTemplates'],
    }),
    docTemplate: build.query<Template, string>({
      query: (id) => pathFor(documentsPaths.template, { id }),
      transformResponse: (response: unknown) => templateSchema.parse(response),
      providesTags: (_result, _error, id) => [{ type: 'DocTemplates', id }],
    }),
    createDocTemplate: build.mutation<Template, TemplateBody>({
      query: (body) => ({ url: documentsPaths.templates, method: 'POST', body }),
      transformResponse: (response: unknown) => templateSchema.parse(response),
      invalidatesTags: ['DocTemplates', 'DocCategories'],
    }),
    saveDocTemplate: build.mutation<Template, { id: string; body: TemplateBody }>({
      query: ({ id, body }) => ({ url: pathFor(documentsPaths.template, { id }), method: 'PUT', body }),
      transformResponse: (response: unknown) => templateSchema.parse(response),
      invalidatesTags: ['DocTemplates', 'DocCategories'],
    }),
    deleteDocTemplate: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(documentsPaths.template, { id }), method: 'DELETE' }),
      invalidatesTags: ['DocTemplates', 'DocCategories'],
    }),
    docStarters: build.query<Starter[], void>({
      query: () => documentsPaths.starters,
      transformResponse: (response: unknown) => itemsOf(starterSchema).parse(response).items,
    }),
    copyDocStarter: build.mutation<Template, string>({
      query: (key) => ({ url: pathFor(documentsPaths.useStarter, { key }), method: 'POST' }),
      transformResponse: (response: unknown) => templateSchema.parse(response),
      invalidatesTags: ['DocTemplates', 'DocCategories'],
    }),
    docStyles: build.query<StylePreset[], void>({
      query: () => documentsPaths.styles,
      transformResponse: (response: unknown) => itemsOf(stylePresetSchema).parse(response).items,
    }),
    generatedDocuments: build.query<DocumentsPage, DocumentsQuery>({
      query: (query) => withQuery(documentsPaths.documents, { ...query }),
      transformResponse: (response: unknown) => documentsPageSchema.parse(response),
      providesTags: ['DocDocuments'],
    }),
    generateDocument: build.mutation<GeneratedDocument, GenerateBody>({
      query: (body) => ({ url: documentsPaths.documents, method: 'POST', body }),
      transformResponse: (response: unknown) => generatedDocumentSchema.parse(response),
      invalidatesTags: ['DocDocuments'],
    }),
    deleteGeneratedDocument: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(documentsPaths.document, { id }), method: 'DELETE' }),
      invalidatesTags: ['DocDocuments'],
    }),
  }),
});

export const {
  useDocCategoriesQuery, useCreateDocCategoryMutation, useRenameDocCategoryMutation, useDeleteDocCategoryMutation,
  useDocTemplatesQuery, useDocTemplateQuery, useCreateDocTemplateMutation, useSaveDocTemplateMutation, useDeleteDocTemplateMutation,
  useDocStartersQuery, useCopyDocStarterMutation, useDocStylesQuery,
  useGeneratedDocumentsQuery, useGenerateDocumentMutation, useDeleteGeneratedDocumentMutation,
} = documentsApi;

/** The download address of a generated document's PDF or .docx (same origin: the session cookie goes with it). */
export const documentFileUrl = (id: string, format: DocumentFormat) => pathFor(documentsPaths.documentFile, { id, format });
