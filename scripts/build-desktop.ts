/**
 * Bundles the desktop app into dist/desktop/:
 *  - main.js: the main process (ESM), and beside it
 *  - robot-process.js: the child process each desktop run's robot runs in (main/robots/runtime.ts forks
 *    the robot-process.js next to the code that runs it, so the packaged app needs no tsx), with the
 *    desktop flows of resources/flows (their robots, flow.json and settings.json) bundled into it;
 *  - preload.cjs (CommonJS: a sandboxed preload cannot load other files, so the contract it allowlists
 *    is bundled into it).
 * Our dependencies are bundled too, so the package needs from node_modules only playwright-core (kept
 * out: it finds its own files beside it at run time) and better-sqlite3 (native: rebuilt for Electron
 * by electron-builder), besides electron itself.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];
/** What the bundles import at run time instead of holding it. */
export const DESKTOP_EXTERNALS = ['electron', 'playwright-core', 'better-sqlite3'];

/** One self-contained ESM (or CJS) file for `entry` in outDir, our code and dependencies inside. */
function bundle(entry: string, outDir: string, fileName: string, format: 'es' | 'cjs', external: string[], { emptyOutDir = false, split = false } = {}): InlineConfig {
  return {
    configFile: false,
    root,
    logLevel: 'warn',
    ssr: { noExternal: true },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir,
      target: 'node20',
      // main.js is one file (runtime.ts finds robot-process.js from its import.meta.url); the robot
      // process keeps its lazy parts (each robot, the spare's warm-up) as chunks it loads when needed.
      rollupOptions: { external, output: { format, entryFileNames: fileName, chunkFileNames: 'chunks/[name]-[hash].js', codeSplitting: split } },
    },
  };
}

export async function buildDesktop(outDir = `${root}dist/desktop`): Promise<void> {
  const external = [...DESKTOP_EXTERNALS, ...nodeBuiltins];
  // Split: what main loads lazily (the A3 import's SheetJS) is a chunk of its own, read when first needed.
  await build(bundle('main/electron/main.ts', outDir, 'main.js', 'es', external, { emptyOutDir: true, split: true }));
  await build(bundle('main/robots/robot-process.ts', outDir, 'robot-process.js', 'es', external, { split: true }));
  await build(bundle('preload/index.ts', outDir, 'preload.cjs', 'cjs', ['electron']));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildDesktop();
  console.log('Aplicación de escritorio compilada en dist/desktop/ (main.js, robot-process.js, preload.cjs).');
}
