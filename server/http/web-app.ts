import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiError } from '#shared/api/errors.ts';

function wantsHtml(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html');
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** A meta tag cannot carry frame-ancestors, so the header adds it to what the page declares. */
const FRAME_ANCESTORS = "frame-ancestors 'none'";

/**
 * The CSP the built index.html declares in its meta tag (renderer/index.html is the one source: the
 * desktop app reads the meta, browsers get the same policy as a header), or null when it has none.
 */
export function pageCsp(indexHtml: string): string | null {
  const tag = /<meta\s[^>]*http-equiv=["']Content-Security-Policy["'][^>]*>/i.exec(indexHtml)?.[0];
  const content = tag && /\scontent=(?:"([^"]*)"|'([^']*)')/i.exec(tag);
  const policy = content ? (content[1] ?? content[2] ?? '').trim().replace(/;\s*$/, '') : '';
  return policy ? `${policy}; ${FRAME_ANCESTORS}` : null;
}

/** '/x/index.html.br' -> '/x/index.html': precompressed siblings are cached like the file they encode. */
function encodedFile(path: string): string {
  return path.replace(/\.(br|gz)$/, '');
}

/**
 * Serves the built renderer at '/'. Client-side routes (/home, /flows/3...) get index.html so the
 * SPA can route them; anything under /api that no route matched is a JSON 404. Text assets are sent
 * from the .br/.gz files the build writes beside them, chosen by Accept-Encoding.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const root = resolve(webRoot);
  const indexFile = join(root, 'index.html');
  const hasIndex = existsSync(indexFile);
  const csp = hasIndex ? pageCsp(readFileSync(indexFile, 'utf8')) : null;
  if (existsSync(root)) {
    await app.register(fastifyStatic, {
      root,
      preCompressed: true,
      // Cache-Control is set below per kind of file; send's default (public, max-age=0) would override it.
      cacheControl: false,
      setHeaders: (res, path) => {
        const file = encodedFile(path);
        // The same URL answers br, gzip or identity: caches must key on Accept-Encoding.
        res.setHeader('vary', 'accept-encoding');
        if (file.endsWith('.html')) {
          // The shell must be revalidated so a deploy is picked up at once; its CSP travels as a header too.
          res.setHeader('cache-control', 'no-cache');
          if (csp) res.setHeader('content-security-policy', csp);
        } else if (!file.startsWith(join(root, 'assets'))) {
          // Files from renderer/public keep their names across deploys (favicon.svg): revalidate.
          res.setHeader('cache-control', 'no-cache');
        }
        // Hashed files under /assets/ are marked immutable by the security headers hook.
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (!isApiPath(request.url) && wantsHtml(request) && hasIndex) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html', root);
    }
    const body: ApiError = {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: isApiPath(request.url) || hasIndex ? 'Recurso no encontrado' : 'La aplicación web no está compilada: ejecuta npm run build:web',
    };
    return reply.status(404).send(body);
  });
}
