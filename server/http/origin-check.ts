import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when a browser's Origin is our own host or one we were told to trust. */
export function isAllowedOrigin(origin: string, host: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (allowedOrigins.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false; // 'null' and other opaque origins
  }
}

/**
 * Cross-site request guard for cookie sessions: browsers send Origin on unsafe requests, so a
 * foreign Origin is refused. Requests without Origin come from non-browser clients and pass.
 */
export function registerOriginCheck(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!isAllowedOrigin(origin, request.headers.host, allowedOrigins)) {
      throw new HttpError(403, 'FORBIDDEN_ORIGIN', 'Origen no permitido');
    }
  });
}
