import { pathFor } from '#shared/api/flows.ts';
import { documentsPaths } from '#shared/api/documents.ts';
import {
  onlineFormSchema, onlineFormSummarySchema, onlineFormsPaths, submissionsPageSchema,
} from '#shared/api/onlineforms.ts';
import type { FormBody, OnlineForm, OnlineFormSummary, SendLinkBody, SubmissionsPage } from '#shared/api/onlineforms.ts';
import { z } from 'zod/mini';
import { baseApi } from './baseApi.ts';

/** The submissions list's filters; the .xlsx export takes the same, without the page. */
export interface SubmissionsQuery {
  formId: string;
  q?: string;
  /** yyyy-mm-dd, inclusive. */
  from?: string;
  to?: string;
  /** One-based. */
  page?: number;
}

/** '?q=…&from=…' with only the filters that are set. */
export function submissionsSearch({ q, from, to, page }: Omit<SubmissionsQuery, 'formId'>): string {
  const params = new URLSearchParams();
  if (q !== undefined && q.trim() !== '') params.set('q', q.trim());
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  if (page !== undefined && page > 1) params.set('page', String(page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The filtered submissions as an .xlsx: a plain link, so the browser downloads it with the session cookie. */
export const submissionsExportUrl = ({ formId, ...filters }: SubmissionsQuery) =>
  `${pathFor(onlineFormsPaths.submissionsExport, { id: formId })}${submissionsSearch({ ...filters, page: undefined })}`;
/** A submission's generated PDF (the document creator's document download). */
export const submissionPdfUrl = (documentId: string) => pathFor(documentsPaths.documentFile, { id: documentId, format: 'pdf' });
/** A submission's drawn signature (image/png). */
export const submissionSignatureUrl = (submissionId: string) => pathFor(onlineFormsPaths.submissionSignature, { id: submissionId });
/** The public page's full address, for copying and mailing. */
export const publicFormUrl = (publicPath: string) => new URL(publicPath, window.location.origin).toString();

const formsListSchema = z.object({ items: z.array(onlineFormSummarySchema) });
const sentSchema = z.object({ sent: z.number() });

/**
 * The advisor's online forms (shared/api/onlineforms.ts). 'OnlineForms' covers the list and each form;
 * 'FormSubmissions' the submissions. The templates a form starts from are the document creator's
 * (renderer/api/documents.ts docTemplates). The public page never uses these (its calls need no session).
 */
export const onlineFormsApi = baseApi.enhanceEndpoints({ addTagTypes: ['OnlineForms', 'FormSubmissions'] }).injectEndpoints({
  endpoints: (build) => ({
    onlineForms: build.query<OnlineFormSummary[], void>({
      query: () => onlineFormsPaths.forms,
      transformResponse: (response: unknown) => formsListSchema.parse(response).items,
      providesTags: ['OnlineForms'],
    }),
    onlineForm: build.query<OnlineForm, string>({
      query: (id) => pathFor(onlineFormsPaths.form, { id }),
      transformResponse: (response: unknown) => onlineFormSchema.parse(response),
      providesTags: (_result, _error, id) => [{ type: 'OnlineForms', id }],
    }),
    createOnlineForm: build.mutation<OnlineForm, FormBody>({
      query: (body) => ({ url: onlineFormsPaths.forms, method: 'POST', body }),
      transformResponse: (response: unknown) => onlineFormSchema.parse(response),
      invalidatesTags: ['OnlineForms'],
    }),
    saveOnlineForm: build.mutation<OnlineForm, { id: string; body: FormBody }>({
      query: ({ id, body }) => ({ url: pathFor(onlineFormsPaths.form, { id }), method: 'PUT', body }),
      transformResponse: (response: unknown) => onlineFormSchema.parse(response),
      invalidatesTags: (_result, _error, { id }) => ['OnlineForms', { type: 'OnlineForms', id }],
    }),
    publishOnlineForm: build.mutation<OnlineForm, string>({
      query: (id) => ({ url: pathFor(onlineFormsPaths.publish, { id }), method: 'POST' }),
      transformResponse: (response: unknown) => onlineFormSchema.parse(response),
      invalidatesTags: (_result, _error, id) => ['OnlineForms', { type: 'OnlineForms', id }],
    }),
    closeOnlineForm: build.mutation<OnlineForm, string>({
      query: (id) => ({ url: pathFor(onlineFormsPaths.close, { id }), method: 'POST' }),
      transformResponse: (response: unknown) => onlineFormSchema.parse(response),
      invalidatesTags: (_result, _error, id) => ['OnlineForms', { type: 'OnlineForms', id }],
    }),
    deleteOnlineForm: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(onlineFormsPaths.form, { id }), method: 'DELETE' }),
      invalidatesTags: ['OnlineForms', 'FormSubmissions'],
    }),
    sendOnlineFormLink: build.mutation<number, { id: string; body: SendLinkBody }>({
      query: ({ id, body }) => ({ url: pathFor(onlineFormsPaths.sendLink, { id }), method: 'POST', body }),
      transformResponse: (response: unknown) => sentSchema.parse(response).sent,
    }),
    formSubmissions: build.query<SubmissionsPage, SubmissionsQuery>({
      query: ({ formId, ...filters }) => `${pathFor(onlineFormsPaths.submissions, { id: formId })}${submissionsSearch(filters)}`,
      transformResponse: (response: unknown) => submissionsPageSchema.parse(response),
      providesTags: ['FormSubmissions'],
    }),
    deleteFormSubmission: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(onlineFormsPaths.submission, { id }), method: 'DELETE' }),
      invalidatesTags: ['FormSubmissions', 'OnlineForms'],
    }),
  }),
});

export const {
  useOnlineFormsQuery, useOnlineFormQuery, useCreateOnlineFormMutation, useSaveOnlineFormMutation,
  usePublishOnlineFormMutation, useCloseOnlineFormMutation, useDeleteOnlineFormMutation, useSendOnlineFormLinkMutation,
  useFormSubmissionsQuery, useDeleteFormSubmissionMutation,
} = onlineFormsApi;

