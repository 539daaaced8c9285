import { notesPaths, activeNotesResponseSchema } from '#shared/api/notes.ts';
import { preferencesPath, preferencesResponseSchema } from '#shared/api/preferences.ts';
import type { Preferences } from '#shared/api/preferences.ts';
import { launcherSubscriptionResponseSchema, subscriptionUsageResponseSchema, subscriptionsPaths } from '#shared/api/subscriptions.ts';
import type { LauncherSubscription, SubscriptionUsage } from '#shared/api/subscriptions.ts';
import { applogsPath } from '#shared/api/applogs-path.ts';
import type { AppLogRequest } from '#shared/api/applogs.ts';
import type { ReleaseNote } from '#shared/domain/release-note.ts';
import { sessionResponseSchema } from '#shared/api/auth.ts';
import { authPaths } from '#shared/api/auth-paths.ts';
import { emailCheckResponseSchema } from '#shared/api/users.ts';
import { usersPaths } from '#shared/api/users-paths.ts';
import type { UpdateProfileRequest } from '#shared/api/users.ts';
import type { UserData } from '#shared/domain/user.ts';
import { useSession } from '../app/hooks.ts';
import { signedOut, userUpdated } from '../app/session.ts';
import { baseApi } from './baseApi.ts';

const toUserData = (response: unknown): UserData => sessionResponseSchema.parse(response).userData;

/**
 * The signed-in user's account: profile, logout, preferences, release notes, subscription, client
 * error logs. (Signing in, restoring and the emailed links are plain calls in session.ts.)
 */
export const accountApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    logout: build.mutation<void, void>({
      query: () => ({ url: authPaths.logout, method: 'POST' }),
      transformResponse: () => undefined,
      // Signed out locally even if the server could not be told: the user asked to leave.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        await queryFulfilled.catch(() => undefined);
        dispatch(signedOut());
        dispatch(baseApi.util.resetApiState());
      },
    }),
    updateProfile: build.mutation<UserData, UpdateProfileRequest>({
      query: (body) => ({ url: usersPaths.update, method: 'PUT', body }),
      transformResponse: toUserData,
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(userUpdated(data));
      },
    }),
    emailCheck: build.query<boolean, string>({
      query: (email) => usersPaths.emailCheck(email),
      transformResponse: (response: unknown) => emailCheckResponseSchema.parse(response).exists,
    }),
    preferences: build.query<Preferences, void>({
      query: () => preferencesPath,
      transformResponse: (response: unknown) => preferencesResponseSchema.parse(response).preferences,
      providesTags: ['Preferences'],
    }),
    /** Merges the keys; a null value removes one. */
    patchPreferences: build.mutation<Preferences, Preferences>({
      query: (body) => ({ url: preferencesPath, method: 'PATCH', body }),
      transformResponse: (response: unknown) => preferencesResponseSchema.parse(response).preferences,
      invalidatesTags: ['Preferences'],
    }),
    activeNotes: build.query<ReleaseNote[], void>({
      query: () => notesPaths.active,
      transformResponse: (response: unknown) => activeNotesResponseSchema.parse(response).items,
      providesTags: ['Notes'],
    }),
    launcherSubscription: build.query<LauncherSubscription, void>({
      query: () => subscriptionsPaths.launcher,
      transformResponse: (response: unknown) => launcherSubscriptionResponseSchema.parse(response),
      providesTags: ['Subscription'],
    }),
    subscriptionUsage: build.query<SubscriptionUsage, void>({
      query: () => subscriptionsPaths.usage,
      transformResponse: (response: unknown) => subscriptionUsageResponseSchema.parse(response),
      providesTags: ['Subscription'],
    }),
    appLog: build.mutation<void, AppLogRequest>({
      query: (body) => ({ url: applogsPath, method: 'POST', body }),
      transformResponse: () => undefined,
    }),
  }),
});

export const {
  useLogoutMutation, useUpdateProfileMutation, useLazyEmailCheckQuery, usePreferencesQuery, usePatchPreferencesMutation, useActiveNotesQuery, useLauncherSubscriptionQuery,
  useSubscriptionUsageQuery,
} = accountApi;

/** What the subscription status card shows: this period's usage and the firm's names for credits and money. */
export interface SubscriptionUsageView {
  usage?: SubscriptionUsage;
  loading: boolean;
  failed: boolean;
  currencies?: string;
  currency?: string;
}

/** The period's usage with the signed-in firm's currency names, for the pages that show the status card. */
export function useSubscriptionUsage(): SubscriptionUsageView {
  const { user } = useSession();
  const { data, isLoading, isError } = useSubscriptionUsageQuery();
  const config = user?.group.config;
  return { usage: data, loading: isLoading, failed: isError, currencies: config?.currencies, currency: config?.currency };
}
