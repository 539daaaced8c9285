/**
 * How a send attempt failed, as the outbox needs to know it: retry later, refresh the token and retry
 * at once, give up, or 'ambiguous': the request may have reached the provider (a timeout or a reset
 * after it was sent), so it may have gone out and is never tried again. Messages are Spanish and never
 * carry a token, an address list or a body.
 */
export type SendFailureKind = 'retryable' | 'unauthorized' | 'permanent' | 'ambiguous';

export class MailSendError extends Error {
  constructor(
    readonly kind: SendFailureKind,
    message: string,
    /** The provider's Retry-After, in milliseconds, when it gave one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

/** Retry-After (RFC 9110 §10.2.3): seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** The provider's answer that was not a success, classified; `provider` names it for the message. */
export async function failureFromResponse(response: Response, provider: string, now: Date): Promise<MailSendError> {
  // The provider's own error text may help support; bounded, and it never holds our token or body.
  const detail = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
  const status = response.status;
  const suffix = detail ? ` (${status}: ${detail})` : ` (${status})`;
  if (status === 401) return new MailSendError('unauthorized', `${provider} no ha aceptado el permiso de la cuenta${suffix}`);
  if (status === 429) return new MailSendError('retryable', `${provider} ha limitado los envíos; se reintentará${suffix}`, parseRetryAfter(response.headers.get('retry-after'), now));
  if (status >= 500) return new MailSendError('retryable', `${provider} no está disponible ahora; se reintentará${suffix}`, parseRetryAfter(response.headers.get('retry-after'), now));
  if (status === 413) return new MailSendError('permanent', `El mensaje es demasiado grande para ${provider}${suffix}`);
  return new MailSendError('permanent', `${provider} ha rechazado el mensaje${suffix}`);
}

/**
 * Failures before the request could leave this machine: no connection, no name, no route, a TLS
 * handshake refused. Only these are safe to try again; anything later may have delivered the message.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCode(error: unknown): string | null {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = cause?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** fetch threw. Retried only when the request never left; a timeout or reset after it did is ambiguous. */
export function failureFromNetwork(error: unknown, provider: string): MailSendError {
  const code = errorCode(error);
  if (code !== null && NOT_SENT_CODES.has(code)) return new MailSendError('retryable', `No se ha podido conectar con ${provider}; se reintentará`);
  const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  return new MailSendError(
    'ambiguous',
    timeout
      ? `${provider} no ha respondido a tiempo y puede que el mensaje llegara; no se reintenta para no enviarlo dos veces`
      : `Se ha cortado la conexión con ${provider} durante el envío y puede que el mensaje llegara; no se reintenta para no enviarlo dos veces`,
  );
}

/** Each attempt's HTTP call gives up after this long, plus a second per 100 kB of body: a 14 MB upload on a slow office line needs minutes. */
export const SEND_TIMEOUT_MS = 30_000;

export function sendTimeoutMs(bodyBytes: number): number {
  return SEND_TIMEOUT_MS + Math.ceil(bodyBytes / 100_000) * 1_000;
}

function bodyBytes(body: RequestInit['body']): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return 0;
}

/** fetch with the timeout; network failures as retryable (never sent) or ambiguous (may have been) MailSendErrors. */
export async function fetchProvider(url: string, init: RequestInit, provider: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(sendTimeoutMs(bodyBytes(init.body))) });
  } catch (error) {
    throw failureFromNetwork(error, provider);
  }
}
