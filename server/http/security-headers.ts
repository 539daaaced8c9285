import type { FastifyInstance } from 'fastify';

export interface SecurityHeadersOptions {
  /** Send HSTS: only when the public URL is https (over plain http browsers ignore it anyway). */
  hsts: boolean;
}

/** One year; no includeSubDomains, as a firm's other hosts under the same domain are not ours. */
const HSTS = 'max-age=31536000';

/**
 * Headers every response carries. The web app's own CSP is set where the page is served
 * (web-app.ts); here we add what applies everywhere: refuse framing (clickjacking of the sign-in
 * form) and MIME sniffing, HSTS behind https, and no caching of API answers.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  // A callback hook, not an async one: it runs on every answer and waits for nothing.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    // A route that lets our own pages frame it (a notification's PDF) sets its own; the rest refuse framing.
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
    // The web app's page sets its own CSP (which also forbids framing); keep it.
    if (!reply.hasHeader('content-security-policy') && !reply.raw.hasHeader('content-security-policy')) reply.header('content-security-policy', "frame-ancestors 'none'");
    if (options.hsts) reply.header('strict-transport-security', HSTS);
    // API answers are per user (profiles, tokens, preferences): no browser or proxy may keep a copy.
    if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?')) {
      reply.header('cache-control', 'no-store');
    } else if (request.url.startsWith('/assets/') && reply.statusCode === 200) {
      // Vite names built assets by content hash, so a file under /assets/ never changes.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
    done(null, payload);
  });
}
