import { notesPaths, activeNotesResponseSchema } from '#shared/api/notes.ts';
import { preferencesPath, preferencesResponseSchema } from '#shared/api/preferences.ts';
import type { Preferences } from '#shared/api/preferences.ts';
import { launcherSubscriptionResponseSchema, subscriptionUsageResponseSchema, subscriptionsPaths } from '#shared/api/subscriptions.ts';
import type { LauncherSubscription, SubscriptionUsage } from '#shared/api/subscriptions.ts';
import { applogsPath } from '#shared/api/applogs.ts';
import type { AppLogRequest } from '#shared/api/applogs.ts';
import type { ReleaseNote } from '#shared/domain/release-note.ts';
import { useSession } from '../app/hooks.ts';
import { baseApi } from './baseApi.ts';

/** The signed-in user's side data: preferences, release notes, subscription, client error logs. */
export const accountApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
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
  usePreferencesQuery, usePatchPreferencesMutation, useActiveNotesQuery, useLauncherSubscriptionQuery,
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
