import { z } from 'zod/mini';
import {
  ALTAS_FLOW_ID, altasPaths, clientCompanySchema, companiesResponseSchema, formConfigurationSchema, formDefinitionSchema,
  formSettingsSchema, submissionSchema, submissionsResponseSchema,
} from '#shared/api/altas.ts';
import type {
  CccRow, ClientCompany, FieldsValues, FormConfiguration, FormDefinition, FormSettings, Submission,
} from '#shared/api/altas.ts';
import { pathFor } from '#shared/api/flows.ts';
import { baseApi } from '../../api/baseApi.ts';

const emailAnswerSchema = z.object({ email: z.string() });

export interface ClientInput {
  name: string;
  email: string;
  cccList: CccRow[];
}

export interface GroupInput {
  text: string;
  fieldsValues: Record<string, string | boolean | null>;
}

/** { companyId, groups: { [uuid]: GroupInput } }: POST creates (or pastes) groups, PATCH updates them. */
export interface GroupsRequest {
  companyId: string;
  groups: Record<string, GroupInput>;
}

export interface SubmissionInput {
  companyId: string;
  groupKey: string | null;
  fieldsValues: FieldsValues;
}

export interface FieldOverride {
  required?: boolean;
  fieldWriter?: 'userBefore' | 'client';
}

export interface FormConfigurationInput {
  name: string;
  formPages: FormConfiguration['formPages'];
  fields: Record<string, FieldOverride>;
}

/** The submissions of the one form this screen shows, with their company's name. */
export const submissionsUrl = `${altasPaths.submissions}?${new URLSearchParams({ flow: ALTAS_FLOW_ID, populate: 'company' }).toString()}`;

/**
 * The advisor's JSON calls of shared/api/altas.ts, answers parsed with its schemas. The multipart
 * form settings PUT goes through altasTransfer.ts (the base query sends JSON only).
 */
export const altasApi = baseApi.enhanceEndpoints({ addTagTypes: ['AltasSubmissions', 'AltasCompanies', 'AltasForm'] }).injectEndpoints({
  endpoints: (build) => ({
    altasSubmissions: build.query<Submission[], void>({
      query: () => submissionsUrl,
      transformResponse: (response: unknown) => submissionsResponseSchema.parse(response).items,
      providesTags: ['AltasSubmissions'],
    }),
    createSubmission: build.mutation<Submission, SubmissionInput>({
      query: (body) => ({ url: altasPaths.submissions, method: 'POST', body }),
      transformResponse: (response: unknown) => submissionSchema.parse(response),
      invalidatesTags: ['AltasSubmissions'],
    }),
    updateSubmission: build.mutation<Submission, { id: string; fieldsValues: FieldsValues }>({
      query: ({ id, fieldsValues }) => ({ url: pathFor(altasPaths.submission, { id }), method: 'PATCH', body: fieldsValues }),
      transformResponse: (response: unknown) => submissionSchema.parse(response),
      invalidatesTags: ['AltasSubmissions'],
    }),
    /** 'Marcar como registrada' (issue 44, 3): filed in RED by other means, with RED's reference if any. */
    markRegistered: build.mutation<Submission, { id: string; reference: string | null }>({
      query: ({ id, reference }) => ({ url: pathFor(altasPaths.markRegistered, { id }), method: 'POST', body: reference === null ? {} : { reference } }),
      transformResponse: (response: unknown) => submissionSchema.parse(response),
      invalidatesTags: ['AltasSubmissions'],
    }),
    deleteSubmission: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(altasPaths.submission, { id }), method: 'DELETE' }),
      transformResponse: () => undefined,
    }),
    altasCompanies: build.query<ClientCompany[], void>({
      query: () => altasPaths.companies,
      transformResponse: (response: unknown) => companiesResponseSchema.parse(response).items,
      providesTags: ['AltasCompanies'],
    }),
    createClient: build.mutation<ClientCompany, ClientInput>({
      query: (body) => ({ url: altasPaths.createClient, method: 'POST', body }),
      transformResponse: (response: unknown) => clientCompanySchema.parse(response),
      invalidatesTags: ['AltasCompanies'],
    }),
    updateClient: build.mutation<ClientCompany, { id: string } & ClientInput>({
      query: ({ id, ...body }) => ({ url: pathFor(altasPaths.client, { id }), method: 'PATCH', body }),
      transformResponse: (response: unknown) => clientCompanySchema.parse(response),
      invalidatesTags: ['AltasCompanies', 'AltasSubmissions'],
    }),
    deleteClient: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(altasPaths.client, { id }), method: 'DELETE' }),
      transformResponse: () => undefined,
      invalidatesTags: ['AltasCompanies'],
    }),
    sendCompanyEmail: build.mutation<{ email: string }, string>({
      query: (id) => ({ url: pathFor(altasPaths.sendEmail, { id }), method: 'PUT' }),
      transformResponse: (response: unknown) => emailAnswerSchema.parse(response),
      invalidatesTags: ['AltasCompanies'],
    }),
    createGroups: build.mutation<ClientCompany, GroupsRequest>({
      query: ({ companyId, groups }) => ({ url: pathFor(altasPaths.groups, { id: companyId, field: 'groups' }), method: 'POST', body: groups }),
      transformResponse: (response: unknown) => clientCompanySchema.parse(response),
      invalidatesTags: ['AltasCompanies'],
    }),
    updateGroups: build.mutation<ClientCompany, GroupsRequest>({
      query: ({ companyId, groups }) => ({ url: pathFor(altasPaths.groups, { id: companyId, field: 'groups' }), method: 'PATCH', body: groups }),
      transformResponse: (response: unknown) => clientCompanySchema.parse(response),
      invalidatesTags: ['AltasCompanies'],
    }),
    deleteGroup: build.mutation<ClientCompany, { companyId: string; key: string }>({
      query: ({ companyId, key }) => ({ url: pathFor(altasPaths.group, { id: companyId, field: 'groups', key }), method: 'DELETE' }),
      transformResponse: (response: unknown) => clientCompanySchema.parse(response),
    }),
    altasFormDefinition: build.query<FormDefinition, void>({
      query: () => pathFor(altasPaths.formDefinition, { flowId: ALTAS_FLOW_ID }),
      transformResponse: (response: unknown) => formDefinitionSchema.parse(response),
      providesTags: ['AltasForm'],
    }),
    altasFormConfiguration: build.query<FormConfiguration, void>({
      query: () => pathFor(altasPaths.formConfiguration, { flowId: ALTAS_FLOW_ID }),
      transformResponse: (response: unknown) => formConfigurationSchema.parse(response),
      providesTags: ['AltasForm'],
    }),
    updateFormConfiguration: build.mutation<FormConfiguration, FormConfigurationInput>({
      query: (body) => ({ url: pathFor(altasPaths.formConfiguration, { flowId: ALTAS_FLOW_ID }), method: 'PATCH', body }),
      transformResponse: (response: unknown) => formConfigurationSchema.parse(response),
      invalidatesTags: ['AltasForm'],
    }),
    altasFormSettings: build.query<FormSettings, void>({
      query: () => altasPaths.formSettings,
      transformResponse: (response: unknown) => formSettingsSchema.parse(response),
      providesTags: ['AltasForm'],
    }),
  }),
});

export const {
  useAltasSubmissionsQuery, useCreateSubmissionMutation, useUpdateSubmissionMutation, useDeleteSubmissionMutation, useMarkRegisteredMutation,
  useAltasCompaniesQuery, useCreateClientMutation, useUpdateClientMutation, useDeleteClientMutation, useSendCompanyEmailMutation,
  useCreateGroupsMutation, useUpdateGroupsMutation, useDeleteGroupMutation,
  useAltasFormDefinitionQuery, useAltasFormConfigurationQuery, useUpdateFormConfigurationMutation, useAltasFormSettingsQuery,
} = altasApi;

/** After a desktop sync, a batch delete or a settings upload: refetch what is on screen. */
export const submissionsChanged = () => altasApi.util.invalidateTags(['AltasSubmissions']);
export const companiesChanged = () => altasApi.util.invalidateTags(['AltasCompanies']);
export const formChanged = () => altasApi.util.invalidateTags(['AltasForm']);
