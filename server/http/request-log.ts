import type { FastifyInstance } from 'fastify';

/** A request slower than this is logged even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Which level a finished request is logged at, or null for none. Successful, fast requests are not
 * logged at all (they were ~380 B each and grew the log by 42 MB in a short load test); failures and
 * slow ones keep one short summary line. Unexpected errors also get their stack from the error handler.
 */
export function requestLogLevel(statusCode: number, ms: number): 'error' | 'warn' | 'info' | null {
  if (statusCode >= 500) return 'error';
  if (ms >= SLOW_REQUEST_MS) return 'warn';
  if (statusCode >= 400) return 'info';
  return null;
}

/** The line of a request whose client hung up before it was whole (no response goes out, so onResponse never runs). */
export const ABORTED_REQUEST_MESSAGE = 'petición interrumpida por el cliente';

/** The path without its query (which may carry tokens), cut short: a summary, not a copy of the request. */
const pathOf = (url: string) => (url.split('?')[0] ?? '').slice(0, 200);

export function registerRequestLog(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs after every answer, and most write nothing (no promise to wait for).
  app.addHook('onResponse', (request, reply, done) => {
    const ms = Math.round(reply.elapsedTime);
    const level = requestLogLevel(reply.statusCode, ms);
    if (level) request.log[level]({ method: request.method, path: pathOf(request.url), status: reply.statusCode, ms, ip: request.ip }, level === 'warn' ? 'petición lenta' : 'petición fallida');
    done();
  });
  // A dropped client is the client's doing: one short line, no stack (the error handler logs none for it).
  app.addHook('onRequestAbort', async (request) => {
    request.log.info({ method: request.method, path: pathOf(request.url), ip: request.ip }, ABORTED_REQUEST_MESSAGE);
  });
}
