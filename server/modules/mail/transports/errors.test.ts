import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../outbox.ts';
import { failureFromNetwork, failureFromResponse, parseRetryAfter, sendTimeoutMs, SEND_TIMEOUT_MS } from './errors.ts';

const now = new Date('2026-03-10T10:00:00.000Z');

describe('retry timing', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Tue, 10 Mar 2026 10:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('pronto', now)).toBeNull();
  });

  it('backs off 1, 2, 4… minutes up to an hour, with at most a fifth more of jitter, or waits what the provider said', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => retryDelayMs(attempts, null, () => 0) / 60_000)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(retryDelayMs(1, null, () => 0.999)).toBeLessThanOrEqual(72_000);
    expect(retryDelayMs(3, 5_000)).toBe(5_000);
  });

  it('classifies answers: 429 and 5xx retry, 401 refreshes, other 4xx are final; the message is Spanish', async () => {
    const answer = (status: number, headers: Record<string, string> = {}) => failureFromResponse(new Response('{"error":"x"}', { status, headers }), 'Gmail', now);
    expect(await answer(429, { 'retry-after': '30' })).toMatchObject({ kind: 'retryable', retryAfterMs: 30_000 });
    expect(await answer(503)).toMatchObject({ kind: 'retryable', retryAfterMs: null });
    expect(await answer(401)).toMatchObject({ kind: 'unauthorized' });
    expect(await answer(400)).toMatchObject({ kind: 'permanent', message: 'Gmail ha rechazado el mensaje (400: {"error":"x"})' });
    expect(await answer(413)).toMatchObject({ kind: 'permanent', message: expect.stringContaining('demasiado grande') });
  });

  it('retries a network failure only when the request never left; a timeout or a reset after it did is ambiguous', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(failureFromNetwork(refused, 'Gmail')).toMatchObject({ kind: 'retryable' });
    expect(failureFromNetwork(reset, 'Gmail')).toMatchObject({ kind: 'ambiguous' });
    expect(failureFromNetwork(timeout, 'Gmail')).toMatchObject({ kind: 'ambiguous', message: expect.stringContaining('no ha respondido a tiempo') });
  });

  it('gives a big upload time to go: 30 s plus a second per 100 kB', () => {
    expect(sendTimeoutMs(0)).toBe(SEND_TIMEOUT_MS);
    expect(sendTimeoutMs(14_000_000)).toBe(SEND_TIMEOUT_MS + 140_000);
  });
});
