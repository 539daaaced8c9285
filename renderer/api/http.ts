import type { ApiError, FieldIssue } from '#shared/api/errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  url: string;
  method?: HttpMethod;
  body?: unknown;
}

/** What every failed call resolves to: an HTTP-like status, the server's error body if any, a message. */
export interface HttpError {
  status: number;
  data?: ApiError;
  message: string;
}

export type HttpResult = { data: unknown; error?: undefined } | { error: HttpError; data?: undefined };

export const TIMEOUT_STATUS = 408;
/** No answer at all (offline, DNS, refused) or the caller cancelled. */
export const NETWORK_STATUS = 0;
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  fetchFn?: typeof fetch;
  signal?: AbortSignal;
}

const messages = {
  timeout: 'El servidor ha tardado demasiado en responder',
  network: 'No se ha podido conectar con el servidor',
  unexpected: 'Ha ocurrido un error inesperado',
};

/** One fetch with cookies, our headers and a timeout that maps to 408 (spec §4). */
export async function sendRequest(request: HttpRequest, options: HttpOptions): Promise<HttpResult> {
  const fetchFn = options.fetchFn ?? ((input, init) => fetch(input, init));
  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort();
  }, options.timeoutMs);
  const onCallerAbort = () => timeout.abort();
  options.signal?.addEventListener('abort', onCallerAbort);

  const hasBody = request.body !== undefined;
  try {
    const response = await fetchFn(request.url, {
      method: request.method ?? 'GET',
      credentials: 'include',
      headers: { ...options.headers, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      body: hasBody ? JSON.stringify(request.body) : undefined,
      signal: timeout.signal,
    });
    const body = await readBody(response);
    if (response.ok) return { data: body };
    const data = readApiError(body);
    return { error: { status: response.status, data, message: data?.message ?? messages.unexpected } };
  } catch {
    if (timedOut) return { error: { status: TIMEOUT_STATUS, message: messages.timeout } };
    return { error: { status: NETWORK_STATUS, message: messages.network } };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFieldIssue = (value: unknown): value is FieldIssue => isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';

/**
 * The API's error body (shared/api/errors.ts), or undefined for anything else (a proxy's HTML page, an
 * empty body). Checked by hand rather than with apiErrorSchema: every first visit meets a 401 here,
 * and this keeps zod out of the entry bundle (issue 20). http.test.ts holds it to the schema.
 */
export function readApiError(body: unknown): ApiError | undefined {
  if (!isRecord(body)) return undefined;
  const { statusCode, code, message, issues, logoutReason, details } = body;
  if (typeof statusCode !== 'number' || typeof code !== 'string' || typeof message !== 'string') return undefined;
  if (issues !== undefined && !(Array.isArray(issues) && issues.every(isFieldIssue))) return undefined;
  if (logoutReason !== undefined && typeof logoutReason !== 'string') return undefined;
  if (details !== undefined && !isRecord(details)) return undefined;
  return {
    statusCode,
    code,
    message,
    ...(issues === undefined ? {} : { issues: issues.map(({ path, message }) => ({ path, message })) }),
    ...(logoutReason === undefined ? {} : { logoutReason }),
    ...(details === undefined ? {} : { details }),
  };
}
