import { createApi } from '@reduxjs/toolkit/query/react';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { authPaths } from '#shared/api/auth.ts';
import { usersPaths } from '#shared/api/users.ts';
import { CLIENT_APP_HEADER, CLIENT_VERSION_HEADER, LANGUAGE_HEADER } from '#shared/api/headers.ts';
import { appVersion, clientApp } from '../app/env.ts';
import { signedOut } from '../app/session.ts';
import type { SessionState } from '../app/session.ts';
import { toastShown } from '../app/toasts.ts';
import { DEFAULT_TIMEOUT_MS } from './http.ts';
import { createReauthBaseQuery } from './reauth.ts';

export type { HttpError, HttpRequest } from './http.ts';

function languageOf(api: BaseQueryApi): string {
  const state = api.getState() as { session?: SessionState };
  return state.session?.user?.language ?? 'es';
}

/** The headers every request carries (spec §7). */
export function clientHeaders(language: string): Record<string, string> {
  return { [CLIENT_APP_HEADER]: clientApp, [CLIENT_VERSION_HEADER]: appVersion, [LANGUAGE_HEADER]: language };
}

export const baseQuery = createReauthBaseQuery({
  headers: (api) => clientHeaders(languageOf(api)),
  timeoutMs: DEFAULT_TIMEOUT_MS,
  refreshPath: authPaths.newToken,
  noRefreshPaths: [authPaths.login, authPaths.newToken, authPaths.logout, authPaths.resetPass, authPaths.resetPassCheck, usersPaths.register],
  // The route guard sees the anonymous session and sends the user to Auth with the target saved.
  onSessionLost: (api, logoutReason) => {
    if (logoutReason) api.dispatch(toastShown('error', logoutReason));
    api.dispatch(signedOut());
  },
});

/** The one RTK Query api; every feature adds its endpoints with baseApi.injectEndpoints. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Me', 'Preferences', 'Notes', 'Subscription'],
  endpoints: () => ({}),
});
