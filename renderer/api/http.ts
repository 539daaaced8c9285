import { apiErrorSchema } from '#shared/api/errors.ts';
import type { ApiError } from '#shared/api/errors.ts';

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
    const parsed = apiErrorSchema.safeParse(body);
    return {
      error: {
        status: response.status,
        data: parsed.success ? parsed.data : undefined,
        message: parsed.success ? parsed.data.message : messages.unexpected,
      },
    };
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
