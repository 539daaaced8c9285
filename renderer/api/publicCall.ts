import type { FieldIssue } from '#shared/api/errors.ts';
import { readApiError } from './http.ts';

/**
 * A public page's call (the altas form's company, an online form's client): plain fetch, never the app's
 * baseApi, whose 401 handling refreshes an advisor's session and sends the user to the advisor's sign-in.
 */
export type CallResult<T> = { ok: true; data: T } | { ok: false; error: CallError };

export interface CallError {
  /** The HTTP status; 0 when no usable answer came (offline, timeout, a body that breaks the contract). */
  status: number;
  /** The server's Spanish message, when it sent one. */
  message: string | undefined;
  issues: FieldIssue[];
}

export const NO_ANSWER: CallError = { status: 0, message: undefined, issues: [] };

/** JSON calls of a public page give up after this long. */
export const PUBLIC_CALL_TIMEOUT_MS = 30_000;

/**
 * One call, its body read as JSON when it is JSON. `credentials`: 'same-origin' for a page with its own
 * cookie session (the altas form), 'omit' for one that must carry none (an online form).
 */
export async function publicCall(url: string, init: RequestInit, options: { credentials: RequestCredentials; timeoutMs?: number }): Promise<CallResult<unknown>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? PUBLIC_CALL_TIMEOUT_MS);
  try {
    const response = await fetch(url, { ...init, credentials: options.credentials, signal: controller.signal });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      body = text;
    }
    if (response.ok) return { ok: true, data: body };
    const apiError = readApiError(body);
    return { ok: false, error: { status: response.status, message: apiError?.message, issues: apiError?.issues ?? [] } };
  } catch {
    return { ok: false, error: NO_ANSWER };
  } finally {
    clearTimeout(timer);
  }
}
