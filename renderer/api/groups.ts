import { firmNameSchema, groupsPaths, routeSettingsSchema } from '#shared/api/groups.ts';
import type { FirmNameRequest, RouteSettings } from '#shared/api/groups.ts';
import { baseApi } from './baseApi.ts';

/**
 * The firm's screen settings and name (shared/api/groups.ts): every member reads them, the owner
 * changes them. Whoever saves also updates the session's user (see RouteSettingsSection and
 * FirmNameForm), so the menu and every screen that names the firm follow.
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
    renameFirm: build.mutation<FirmNameRequest, FirmNameRequest>({
      query: (body) => ({ url: groupsPaths.firmName, method: 'PUT', body }),
      transformResponse: (response: unknown) => firmNameSchema.parse(response),
    }),
  }),
});

export const { useRouteSettingsQuery, useSaveRouteSettingsMutation, useRenameFirmMutation } = groupsApi;
