import { pathFor } from '#shared/api/flows.ts';
import { colleaguesPaths, colleaguesSchema, invitationPreviewSchema, invitationSchema } from '#shared/api/colleagues.ts';
import type { Colleagues, Invitation, InvitationPreview, NewInvitation } from '#shared/api/colleagues.ts';
import { baseApi } from './baseApi.ts';

/**
 * The colleagues module's calls (shared/api/colleagues.ts). 'Colleagues' covers the firm's members
 * and pending invitations, so inviting, revoking or removing refreshes the one list. Accepting an
 * invitation signs the new colleague in, so it is a session call (session.ts), not an endpoint here.
 */
export const colleaguesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Colleagues'] }).injectEndpoints({
  endpoints: (build) => ({
    colleagues: build.query<Colleagues, void>({
      query: () => colleaguesPaths.colleagues,
      transformResponse: (response: unknown) => colleaguesSchema.parse(response),
      providesTags: ['Colleagues'],
    }),
    inviteColleague: build.mutation<Invitation, NewInvitation>({
      query: (body) => ({ url: colleaguesPaths.invitations, method: 'POST', body }),
      transformResponse: (response: unknown) => invitationSchema.parse(response),
      invalidatesTags: ['Colleagues'],
    }),
    revokeInvitation: build.mutation<void, string>({
      query: (id) => ({ url: pathFor(colleaguesPaths.invitation, { id }), method: 'DELETE' }),
      invalidatesTags: ['Colleagues'],
    }),
    removeColleague: build.mutation<void, string>({
      query: (userId) => ({ url: pathFor(colleaguesPaths.colleague, { userId }), method: 'DELETE' }),
      invalidatesTags: ['Colleagues'],
    }),
    /** Public: what the emailed link invites to; dropped as soon as the page closes (a link is single use). */
    invitationPreview: build.query<InvitationPreview, string>({
      query: (token) => pathFor(colleaguesPaths.invitationByToken, { token }),
      transformResponse: (response: unknown) => invitationPreviewSchema.parse(response),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useColleaguesQuery, useInviteColleagueMutation, useRevokeInvitationMutation, useRemoveColleagueMutation, useInvitationPreviewQuery,
} = colleaguesApi;
