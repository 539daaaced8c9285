import { existsSync } from 'node:fs';
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

/**
 * Serves the built renderer at '/'. Client-side routes (/home, /flows/3...) get index.html so the
 * SPA can route them; anything under /api that no route matched is a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const root = resolve(webRoot);
  const hasIndex = existsSync(join(root, 'index.html'));
  if (existsSync(root)) {
    await app.register(fastifyStatic, {
      root,
      // index.html must be revalidated so a deploy is picked up; hashed assets may be cached.
      setHeaders: (res, path) => {
        if (path.endsWith('.html')) res.setHeader('cache-control', 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (!isApiPath(request.url) && wantsHtml(request) && hasIndex) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false });
    }
    const body: ApiError = {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: isApiPath(request.url) || hasIndex ? 'Recurso no encontrado' : 'La aplicación web no está compilada: ejecuta npm run build:web',
    };
    return reply.status(404).send(body);
  });
}
