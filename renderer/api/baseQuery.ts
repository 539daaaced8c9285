import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { authPaths } from '#shared/api/auth-paths.ts';
import { usersPaths } from '#shared/api/users-paths.ts';
import { CLIENT_APP_HEADER, CLIENT_VERSION_HEADER, LANGUAGE_HEADER } from '#shared/api/headers.ts';
import { appVersion, clientApp } from '../app/env.ts';
import { signedOut } from '../app/session.ts';
import type { SessionState } from '../app/session.ts';
import { toastShown } from '../app/toasts.ts';
import { DEFAULT_TIMEOUT_MS } from './http.ts';
import type { HttpRequest, HttpResult } from './http.ts';
import { createReauthBaseQuery } from './reauth.ts';

/*
 * How every call reaches the server, without RTK Query itself: RTK Query's base api uses this base
 * query, and the calls a first visit to /auth makes (session restore, sign-in, sign-up, password
 * reset) go through callApi below. Both share the one in-flight token refresh, so a 401 anywhere
 * is answered by a single refresh, and a lost session ends the same way (toast + signedOut).
 */

function languageOf(getState: () => unknown): string {
  const state = getState() as { session?: SessionState };
  return state.session?.user?.language ?? 'es';
}

/** The headers every request carries (spec §7). */
export function clientHeaders(language: string): Record<string, string> {
  return { [CLIENT_APP_HEADER]: clientApp, [CLIENT_VERSION_HEADER]: appVersion, [LANGUAGE_HEADER]: language };
}

export const baseQuery = createReauthBaseQuery({
  headers: (api) => clientHeaders(languageOf(api.getState)),
  timeoutMs: DEFAULT_TIMEOUT_MS,
  refreshPath: authPaths.newToken,
  noRefreshPaths: [authPaths.login, authPaths.newToken, authPaths.logout, authPaths.resetPass, authPaths.resetPassCheck, usersPaths.register],
  // The route guard sees the anonymous session and sends the user to Auth with the target saved.
  onSessionLost: (api, logoutReason) => {
    if (logoutReason) api.dispatch(toastShown('error', logoutReason));
    api.dispatch(signedOut());
  },
});

/** What callApi needs from the store: a thunk's own arguments. */
export interface StoreAccess {
  dispatch: BaseQueryApi['dispatch'];
  getState: () => unknown;
}

/** One call through the base query (headers, timeout, the shared 401 refresh) outside RTK Query. */
export async function callApi(request: HttpRequest, { dispatch, getState }: StoreAccess): Promise<HttpResult> {
  const api: BaseQueryApi = {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch,
    getState,
    extra: undefined,
    endpoint: request.url,
    type: request.method === undefined || request.method === 'GET' ? 'query' : 'mutation',
  };
  const result = await baseQuery(request, api, {});
  return result.error ? { error: result.error } : { data: result.data };
}
