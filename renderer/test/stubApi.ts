import { vi } from 'vitest';
import { jsonResponse } from './renderApp.tsx';

/** One request the screen made: 'METHOD /path' (decoded), its URL and its JSON body. */
export interface StubbedCall {
  key: string;
  url: URL;
  body: unknown;
}
export type StubbedHandler = (call: StubbedCall) => Response;

/**
 * Replaces fetch with the given routes ('GET /api/macro/:id' written out); any other request answers
 * 404. Returns the calls made, in order, for the test to read the bodies sent. Undo with vi.unstubAllGlobals.
 */
export function stubApi(routes: Record<string, StubbedHandler>): StubbedCall[] {
  const calls: StubbedCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`;
    const call = { key, url, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
    calls.push(call);
    const handler = routes[key];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

/** A route that always answers `body` with `status`. */
export const answer = (body: unknown, status = 200): StubbedHandler => () => jsonResponse(status, body);
