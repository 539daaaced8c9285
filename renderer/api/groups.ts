import { groupsPaths, routeSettingsSchema } from '#shared/api/groups.ts';
import type { RouteSettings } from '#shared/api/groups.ts';
import { baseApi } from './baseApi.ts';

/**
 * The firm's screen settings (shared/api/groups.ts): every member reads them, the owner changes them.
 * Whoever saves also updates the session's user (see RouteSettingsSection), so the menu follows.
 */
export const groupsApi = baseApi.enhanceEndpoints({ addTagTypes: ['RouteSettings'] }).injectEndpoints({
  endpoints: (build) => ({
    routeSettings: build.query<RouteSettings, void>({
      query: () => groupsPaths.routeSettings,
      transformResponse: (response: unknown) => routeSettingsSchema.parse(response),
      providesTags: ['RouteSettings'],
    }),
    saveRouteSettings: build.mutation<RouteSettings, RouteSettings>({
      query: (body) => ({ url: groupsPaths.routeSettings, method: 'PUT', body }),
      transformResponse: (response: unknown) => routeSettingsSchema.parse(response),
      invalidatesTags: ['RouteSettings'],
    }),
  }),
});

export const { useRouteSettingsQuery, useSaveRouteSettingsMutation } = groupsApi;
