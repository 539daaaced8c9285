/**
 * How a send attempt failed, as the outbox needs to know it: retry later, refresh the token and retry
 * at once, or give up. Messages are Spanish and never carry a token, an address list or a body.
 */
export type SendFailureKind = 'retryable' | 'unauthorized' | 'permanent';

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

/** fetch threw: no answer (network, DNS, timeout). Always worth another try. */
export function failureFromNetwork(error: unknown, provider: string): MailSendError {
  const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  return new MailSendError('retryable', timeout ? `${provider} no ha respondido a tiempo; se reintentará` : `No se ha podido conectar con ${provider}; se reintentará`);
}

/** Each attempt's HTTP call gives up after this long (AbortSignal.timeout). */
export const SEND_TIMEOUT_MS = 30_000;

/** fetch with the timeout, network failures turned into retryable MailSendErrors. */
export async function fetchProvider(url: string, init: RequestInit, provider: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
  } catch (error) {
    throw failureFromNetwork(error, provider);
  }
}
