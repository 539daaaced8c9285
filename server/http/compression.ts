import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers this size or smaller go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Issue 43 (6): API answers compressed when the client accepts it (brotli, else gzip): a year of one
 * firm's FIE list was 7.3 MB of JSON sent as it was. @fastify/compress (registered before the routes,
 * which it wraps as they are added) with its tuned brotli quality; types that do not compress (.xlsx,
 * PDF, images) are left alone.
 * Request bodies are not decompressed: each route's body limit stays what the bytes sent are.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // API routes only: the web app's files have their precompressed siblings (web-app.ts), and a file
  // without one (an icon) is sent as it is. Added before the plugin's own hook, which reads it.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) route.compress = false;
  });
  await app.register(fastifyCompress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
}
