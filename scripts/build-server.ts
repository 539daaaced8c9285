/**
 * Compiles the API server once to JavaScript: server/index.ts and everything it imports, packages
 * included, as ESM in dist/server/index.js and the chunk-*.js files beside it. Node then reads a few
 * files instead of resolving and loading ~1,500 package files one by one (about 0.5 s of a cold start
 * here). Left as imports: native addons (argon2, better-sqlite3), and pg/pg-boss and pino, which load
 * files of their own at run time (pg's optional native binding, pino's transports in worker threads).
 * `node dist/server/index.js` starts in a fraction of the time tsx needs to transpile on every start.
 * Migrations are listed statically in server/db/migrate.ts, so they are inside the bundle. Each run's
 * process starts from a second file beside it, dist/server/run-process.js, which bundles the robots of
 * resources/flows.
 * What the server only loads with import() when first needed (the robots and SheetJS, nodemailer, the
 * password dictionaries, the API reader) is in chunks of its own, as is code the entries share: a
 * start reads and compiles ~1.9 MB of JavaScript (whitespace minified) instead of ~6.5 MB. Source maps
 * leave the sources out (Node maps stack traces without them): a start parses ~1.5 MB of map instead of
 * ~12 MB.
 */
import { build, type Plugin } from 'esbuild';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Packages the bundle imports from node_modules at run time (see above for why). */
// pdfkit reads its standard fonts' metrics (data/*.afm) from beside its own file at run time.
const UNBUNDLED_PACKAGES = ['argon2', 'better-sqlite3', 'pg', 'pg-native', 'pg-boss', 'pino', 'pino-roll', 'thread-stream', 'pdfkit'];

/**
 * `import { z } from 'zod/mini'` in our sources, read as `import * as z from 'zod/mini'` (the same
 * members: zod/mini exports z as the namespace of its own exports). esbuild keeps every member of a
 * namespace reached through a named import, ~50 locales included (0.6 MB, compiled at every start);
 * through `import * as` it keeps only the members the code names.
 */
const zodNamespaceImports: Plugin = {
  name: 'zod-namespace-imports',
  setup(build) {
    build.onLoad({ filter: /[\\/](server|shared|resources)[\\/].*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const named = "import { z } from 'zod/mini';";
      if (!source.includes(named)) return undefined;
      return { contents: source.replaceAll(named, "import * as z from 'zod/mini';"), loader: 'ts' };
    });
  },
};

/** `npm start` runs this file; node resolves the bundle's imports from node_modules above it. */
export const SERVER_ENTRY = join(root, 'dist', 'server', 'index.js');

/**
 * Builds the server entry at `outfile` and, beside it, run-process.js: each run's child process starts
 * from that file (server/modules/runs/run-child.ts looks for it next to the bundle), with the robots of
 * resources/flows bundled into it.
 * inspect-child.js is beside it too: each upload's inspection process starts from it
 * (server/files/inspector.ts looks for it next to the bundle); demo-process.js, which makes the
 * demo account's files after a first start (server/db/demo-files.ts); and fie-decode-child.js, which
 * decodes each uploaded FIE (server/modules/fie/decoder.ts).
 */
export async function buildServer(outfile = SERVER_ENTRY): Promise<string> {
  await bundle({ [basename(outfile, '.js')]: 'server/index.ts', ...CHILD_ENTRIES }, dirname(outfile));
  return outfile;
}

/** The server's child processes, each forked from its own bundle (server/child-command.ts). */
const CHILD_ENTRIES = {
  'run-process': 'server/modules/runs/run-process.ts',
  'inspect-child': 'server/files/inspect-child.ts',
  'demo-process': 'server/db/demo-process.ts',
  'fie-decode-child': 'server/modules/fie/fie-decode-child.ts',
  'document-render-child': 'server/modules/documents/document-render-child.ts',
};

/**
 * The child processes alone, for a test run from source (scripts/vitest-child-bundles.ts), with the
 * test flows runs load their robots from (server/modules/runs/test-support.ts) beside them.
 */
export async function buildChildBundles(outdir: string): Promise<void> {
  await bundle({ ...CHILD_ENTRIES, 'test-flows': 'server/modules/flows/test-flows/index.ts' }, outdir);
}

async function bundle(entryPoints: Record<string, string>, outdir: string): Promise<void> {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...UNBUNDLED_PACKAGES],
    plugins: [zodNamespaceImports],
    // Bundled CommonJS packages call require() for Node's modules; an ES module has none of its own.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    // Modules loaded with import() become chunks of their own, read only when first imported.
    splitting: true,
    // A CommonJS package in a chunk of its own is only its default export (module.exports): the
    // password estimator's `const { ZxcvbnFactory } = await import(...)` needs its ES module build.
    alias: { '@zxcvbn-ts/core': '@zxcvbn-ts/core/dist/index.mjs', '@zxcvbn-ts/language-common': '@zxcvbn-ts/language-common/dist/index.mjs' },
    chunkNames: 'chunk-[hash]',
    // Whitespace and syntax only (names stay): a start compiles ~40% fewer bytes; stack traces are
    // mapped back to the sources by the source maps (npm start runs node --enable-source-maps).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  // Chunks of earlier builds in the same folder (their names change with their content).
  const written = new Set(Object.keys(metafile.outputs).map((path) => basename(path)));
  for (const name of await readdir(outdir)) {
    if (name.startsWith('chunk-') && !written.has(name)) await rm(join(outdir, name), { force: true });
  }
}

/**
 * A private build for a test or bench run (they may run beside each other and beside `npm start`):
 * same code as `npm start`, in its own folder under dist/server/ so node_modules still resolves.
 */
export async function buildServerCopy(): Promise<{ entry: string; dir: string }> {
  await mkdir(join(root, 'dist', 'server'), { recursive: true });
  const dir = await mkdtemp(join(root, 'dist', 'server', 'run-'));
  return { entry: await buildServer(join(dir, 'index.js')), dir };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`Servidor compilado en dist/server/index.js (${(performance.now() - started).toFixed(0)} ms).`);
}
