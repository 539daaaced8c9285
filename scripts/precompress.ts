/**
 * Build step for the web app: a .br (quality 11) and a .gz (level 9) copy beside every text file of
 * the renderer build, so the server sends them as they are (@fastify/static preCompressed) instead of
 * sending 500 KB of plain JavaScript or compressing on every request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost; the server then sends the plain file. */
export const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Writes file.br and file.gz for every text file of dir (at any depth); returns the files compressed. */
export async function precompressDir(dir: string): Promise<string[]> {
  const jobs: Promise<string>[] = [];
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    jobs.push(
      readFile(file).then(async (data) => {
        // The zlib calls run on libuv's thread pool, so the files compress in parallel.
        const [br, gz] = await Promise.all([
          brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
          gzipAsync(data, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        return file;
      }),
    );
  }
  return Promise.all(jobs);
}

/** The Vite plugin: precompresses the whole output folder once the build is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'autoasesor:precompress',
    apply: 'build',
    configResolved(config) {
      // build.outDir may be relative to the root (the renderer folder), not to the working directory.
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
