import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An http(s) URL's origin as browsers serialise it: scheme, host and port, lower-case, the scheme's
 * default port left out (`https://X.example:443` → `https://x.example`). Null for anything else:
 * 'null' and other opaque origins, garbage.
 */
function webOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Our own origin as this request reached us: the scheme and Host as Fastify sees them, which honours
 * X-Forwarded-Proto and X-Forwarded-Host only from a proxy TRUST_PROXY trusts. Null without a Host.
 */
export function requestOrigin(request: Pick<FastifyRequest, 'protocol' | 'host'>): string | null {
  return request.host ? webOrigin(`${request.protocol}://${request.host}`) : null;
}

/**
 * True when a browser's Origin is our own origin or one we were told to trust: scheme, host and port
 * all equal (an https page is not our http server, nor another port of our host). A listed origin that
 * is not http(s) (a desktop shell's own scheme) must match as written.
 */
export function isAllowedOrigin(origin: string, ownOrigin: string | null, allowedOrigins: readonly string[]): boolean {
  if (allowedOrigins.includes(origin)) return true;
  const normalised = webOrigin(origin);
  if (normalised === null) return false;
  if (ownOrigin !== null && webOrigin(ownOrigin) === normalised) return true;
  return allowedOrigins.some((allowed) => webOrigin(allowed) === normalised);
}

/**
 * Cross-site request guard for cookie sessions: browsers send Origin on unsafe requests, so a
 * foreign Origin is refused. Requests without Origin come from non-browser clients and pass.
 */
export function registerOriginCheck(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  // A callback hook, not an async one: every request passes it, and a GET leaves it at once.
  app.addHook('onRequest', (request, _reply, done) => {
    const origin = request.headers.origin;
    if (UNSAFE_METHODS.has(request.method) && origin !== undefined && !isAllowedOrigin(origin, requestOrigin(request), allowedOrigins)) {
      done(new HttpError(403, 'FORBIDDEN_ORIGIN', 'Origen no permitido'));
      return;
    }
    done();
  });
}
