import { describe, expect, it, vi } from 'vitest';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { sendRequest } from './http.ts';
import { createReauthBaseQuery } from './reauth.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const unauthorized = (logoutReason?: string) => json(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'No autorizado', logoutReason });

function fakeApi(): BaseQueryApi {
  return {
    signal: new AbortController().signal, abort: () => undefined, dispatch: vi.fn(), getState: () => ({}),
    extra: undefined, endpoint: 'test', type: 'query',
  };
}

/** A server whose session cookie is "expired" until one refresh succeeds. */
function expiredSessionServer(refreshOk: boolean, refreshReason?: string) {
  let fresh = false;
  const calls: string[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    if (url === '/api/auth/newtoken') {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (!refreshOk) return unauthorized(refreshReason);
      fresh = true;
      return json(200, { ok: true });
    }
    return fresh ? json(200, { url }) : unauthorized('Tu sesión ha caducado');
  });
  return { fetchFn: fetchFn as unknown as typeof fetch, calls };
}

function reauth(fetchFn: typeof fetch, onSessionLost = vi.fn()) {
  const query = createReauthBaseQuery({
    headers: () => ({ 'x-client-app': 'web' }), timeoutMs: 1000, refreshPath: '/api/auth/newtoken',
    noRefreshPaths: ['/api/auth/login', '/api/auth/newtoken'], onSessionLost, fetchFn,
  });
  return { query, onSessionLost };
}

describe('the 401 refresh', () => {
  it('shares one refresh among concurrent requests and retries each once', async () => {
    const server = expiredSessionServer(true);
    const { query, onSessionLost } = reauth(server.fetchFn);
    const results = await Promise.all(['/api/a', '/api/b', '/api/c'].map((url) => query(url, fakeApi(), {})));

    expect(results.map((result) => result.data)).toEqual([{ url: '/api/a' }, { url: '/api/b' }, { url: '/api/c' }]);
    expect(server.calls.filter((url) => url === '/api/auth/newtoken')).toHaveLength(1);
    expect(server.calls.filter((url) => url === '/api/a')).toHaveLength(2);
    expect(onSessionLost).not.toHaveBeenCalled();
  });

  it('on a failed refresh reports the session lost once, with the server reason, and returns the 401', async () => {
    const server = expiredSessionServer(false, 'Has iniciado sesión en otro dispositivo');
    const { query, onSessionLost } = reauth(server.fetchFn);
    const results = await Promise.all(['/api/a', '/api/b'].map((url) => query(url, fakeApi(), {})));

    expect(results.map((result) => result.error?.status)).toEqual([401, 401]);
    expect(server.calls.filter((url) => url === '/api/auth/newtoken')).toHaveLength(1);
    expect(onSessionLost).toHaveBeenCalledTimes(1);
    expect(onSessionLost.mock.calls[0]?.[1]).toBe('Has iniciado sesión en otro dispositivo');
  });

  it('falls back to the first 401 reason when the refresh gives none', async () => {
    const server = expiredSessionServer(false);
    const { query, onSessionLost } = reauth(server.fetchFn);
    await query('/api/a', fakeApi(), {});
    expect(onSessionLost.mock.calls[0]?.[1]).toBe('Tu sesión ha caducado');
  });

  it('never refreshes for wrong credentials at login', async () => {
    const fetchFn = vi.fn(async () => unauthorized()) as unknown as typeof fetch;
    const { query, onSessionLost } = reauth(fetchFn);
    const result = await query({ url: '/api/auth/login', method: 'POST', body: { email: 'a@b.es', password: 'x' } }, fakeApi(), {});
    expect(result.error?.status).toBe(401);
    expect(fetchFn).toHaveBeenCalledTimes(1);
    expect(onSessionLost).not.toHaveBeenCalled();
  });
});

describe('sendRequest', () => {
  it('maps a timeout to status 408', async () => {
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))) as typeof fetch;
    const result = await sendRequest({ url: '/api/slow' }, { headers: {}, timeoutMs: 20, fetchFn: hanging });
    expect(result.error?.status).toBe(408);
  });

  it('sends cookies, our headers and a JSON body, and parses the API error shape', async () => {
    const fetchFn = vi.fn(async () => json(400, { statusCode: 400, code: 'BAD_REQUEST', message: 'Datos no válidos', issues: [{ path: 'email', message: 'Introduce una dirección de correo electrónico válida' }] }));
    const result = await sendRequest({ url: '/api/users', method: 'POST', body: { email: 'x' } }, { headers: { 'x-client-app': 'desktop' }, timeoutMs: 1000, fetchFn: fetchFn as unknown as typeof fetch });

    const init = (fetchFn.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ 'x-client-app': 'desktop', 'content-type': 'application/json' });
    expect(init.body).toBe('{"email":"x"}');
    expect(result.error?.data?.issues?.[0]?.path).toBe('email');
  });

  it('reports a network failure as status 0', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const result = await sendRequest({ url: '/api/x' }, { headers: {}, timeoutMs: 1000, fetchFn: failing });
    expect(result.error?.status).toBe(0);
  });
});
