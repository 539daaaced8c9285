import type { BaseQueryApi, BaseQueryFn } from '@reduxjs/toolkit/query';
import { sendRequest } from './http.ts';
import type { HttpError, HttpRequest } from './http.ts';

export interface ReauthOptions {
  /** Headers for this call (client app, version, language); read per request. */
  headers: (api: BaseQueryApi) => Record<string, string>;
  timeoutMs: number;
  refreshPath: string;
  /** Paths whose 401 means "wrong credentials", not "expired session" (login, refresh itself...). */
  noRefreshPaths: readonly string[];
  /** Called once per failed refresh, with the server's logoutReason when it gave one. */
  onSessionLost: (api: BaseQueryApi, logoutReason: string | undefined) => void;
  fetchFn?: typeof fetch;
}

/**
 * A base query that answers a 401 with exactly one token refresh shared by every request that is
 * waiting on it, then retries each of them once (spec §4). A request that was sent before a refresh
 * finished but answered after it just retries: its cookie was the old one.
 */
export function createReauthBaseQuery(options: ReauthOptions): BaseQueryFn<string | HttpRequest, unknown, HttpError> {
  let refreshing: Promise<boolean> | null = null;
  let refreshes = 0;

  const send = (request: HttpRequest, api: BaseQueryApi) =>
    sendRequest(request, { headers: options.headers(api), timeoutMs: options.timeoutMs, fetchFn: options.fetchFn, signal: api.signal });

  const refreshOnce = (api: BaseQueryApi, firstReason: string | undefined): Promise<boolean> => {
    refreshing ??= send({ url: options.refreshPath, method: 'POST' }, api)
      .then((result) => {
        if (result.error) {
          options.onSessionLost(api, result.error.data?.logoutReason ?? firstReason);
          return false;
        }
        refreshes += 1;
        return true;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  };

  return async (args, api) => {
    const request = typeof args === 'string' ? { url: args } : args;
    const refreshesBefore = refreshes;
    const result = await send(request, api);
    if (result.error?.status !== 401 || options.noRefreshPaths.includes(request.url)) return result;

    const refreshedMeanwhile = refreshes !== refreshesBefore;
    if (!refreshedMeanwhile && !(await refreshOnce(api, result.error.data?.logoutReason))) return result;
    return send(request, api);
  };
}
