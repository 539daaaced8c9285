import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { HttpError } from './errors.ts';

export const TOO_MANY_ATTEMPTS = 'Demasiados intentos. Espera un minuto y vuelve a intentarlo.';

/** The 429 in our error shape; the rate-limit plugin throws what this returns. */
export function rateLimitError(): HttpError {
  return new HttpError(429, 'RATE_LIMITED', TOO_MANY_ATTEMPTS);
}

/** The email a request body names, lowercased, or '' (read before the body is validated). */
function bodyEmail(request: FastifyRequest): string {
  const body: unknown = request.body;
  if (body === null || typeof body !== 'object' || !('email' in body)) return '';
  return typeof body.email === 'string' ? body.email.trim().toLowerCase().slice(0, 254) : '';
}

/** Limits attempts per client IP and email, so guessing one account cannot lock out the office. */
export function perIpAndEmail(max: number, timeWindowMs: number): RateLimitOptions {
  // preHandler: the body is parsed by then, so the key can include the email.
  return { max, timeWindow: timeWindowMs, hook: 'preHandler', keyGenerator: (request) => `${request.ip}|${bodyEmail(request)}` };
}

export function perIp(max: number, timeWindowMs: number): RateLimitOptions {
  return { max, timeWindow: timeWindowMs, keyGenerator: (request) => request.ip };
}

/** "1 segundo", "40 segundos", "1 minuto", "15 minutos": how long until a retry, rounded up. */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

/** A 429 that says when to retry, in the body and in Retry-After (set by the caller on the reply). */
export function retryLaterError(waitMs: number): HttpError {
  return new HttpError(429, 'RATE_LIMITED', `Demasiados intentos. Vuelve a intentarlo dentro de ${waitText(waitMs)}.`);
}
