import { pathFor } from '#shared/api/flows.ts';
import {
  deliveriesResponseSchema, desktopClientsSchema, mailAccountSchema, mailAccountsResponseSchema, mailPaths, oauthStartResponseSchema,
} from '#shared/api/mail.ts';
import type {
  DesktopClients, MailAccount, MailDelivery, OAuthCompleteRequest, OAuthDesktopRequest, OAuthStartRequest, OAuthStartResponse,
} from '#shared/api/mail.ts';
import { baseApi } from './baseApi.ts';

/**
 * The mail accounts module's calls (shared/api/mail.ts). 'MailAccounts' covers the firm's linked
 * mailboxes; linking or unlinking one also refreshes 'Machines', whose configs name an account.
 */
export const mailApi = baseApi.enhanceEndpoints({ addTagTypes: ['MailAccounts', 'MailDeliveries', 'Machines'] }).injectEndpoints({
  endpoints: (build) => ({
    mailAccounts: build.query<MailAccount[], void>({
      query: () => mailPaths.accounts,
      transformResponse: (response: unknown) => mailAccountsResponseSchema.parse(response).items,
      providesTags: ['MailAccounts'],
    }),
    deleteMailAccount: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(mailPaths.account, { id }), method: 'DELETE' }),
      invalidatesTags: ['MailAccounts', 'Machines'],
    }),
    startMailOAuth: build.mutation<OAuthStartResponse, OAuthStartRequest>({
      query: (body) => ({ url: mailPaths.oauthStart, method: 'POST', body }),
      transformResponse: (response: unknown) => oauthStartResponseSchema.parse(response),
    }),
    completeMailOAuth: build.mutation<MailAccount, OAuthCompleteRequest>({
      query: (body) => ({ url: mailPaths.oauthComplete, method: 'POST', body }),
      transformResponse: (response: unknown) => mailAccountSchema.parse(response),
      invalidatesTags: ['MailAccounts', 'Machines'],
    }),
    completeDesktopMailOAuth: build.mutation<MailAccount, OAuthDesktopRequest>({
      query: (body) => ({ url: mailPaths.oauthDesktop, method: 'POST', body }),
      transformResponse: (response: unknown) => mailAccountSchema.parse(response),
      invalidatesTags: ['MailAccounts', 'Machines'],
    }),
    desktopMailClients: build.query<DesktopClients, void>({
      query: () => mailPaths.oauthDesktopClients,
      transformResponse: (response: unknown) => desktopClientsSchema.parse(response),
    }),
    runDeliveries: build.query<MailDelivery[], string>({
      query: (runId) => `${mailPaths.deliveries}?${new URLSearchParams({ runId }).toString()}`,
      transformResponse: (response: unknown) => deliveriesResponseSchema.parse(response).items,
      providesTags: ['MailDeliveries'],
    }),
  }),
});

export const {
  useMailAccountsQuery, useDeleteMailAccountMutation, useStartMailOAuthMutation, useCompleteMailOAuthMutation,
  useCompleteDesktopMailOAuthMutation, useLazyDesktopMailClientsQuery, useRunDeliveriesQuery,
} = mailApi;
