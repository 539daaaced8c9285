import type { FastifyInstance } from 'fastify';

/**
 * Headers every response carries. The page's own CSP is a meta tag in index.html (it must also work
 * when a desktop window loads it); here we add what a meta tag cannot do: refuse framing
 * (clickjacking of the sign-in form) and MIME sniffing.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', "frame-ancestors 'none'");
    // Vite names built assets by content hash, so a file under /assets/ never changes.
    if (request.url.startsWith('/assets/') && reply.statusCode === 200) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
  });
}
