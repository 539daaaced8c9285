import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How the server starts one of its child processes (a run, an upload's inspection, the demo's robots),
 * named by its source file, which sits beside the module `from` that forks it:
 * - compiled (`from` is in dist/server/): the bundle beside it, `<name>.js` (scripts/build-server.ts);
 * - from source, with `bundles` set: `<name>.js` in that folder. The test run builds the children
 *   there once (scripts/vitest-child-bundles.ts, AUTOASESOR_CHILD_BUNDLES), since compiling a child's
 *   sources through tsx cost ~0.4 s of CPU at each of the suite's ~250 starts;
 * - from source otherwise (tsx): `<name>.ts` through tsx's loader.
 */
export function childCommand(name: string, memoryMb: number, from: string, bundles = process.env.AUTOASESOR_CHILD_BUNDLES, heap: readonly string[] = [`--max-old-space-size=${memoryMb}`]): { entry: string; execArgv: string[] } {
  if (!from.endsWith('.ts')) return { entry: fileURLToPath(new URL(`./${name}.js`, from)), execArgv: [...heap] };
  if (bundles) return { entry: join(bundles, `${name}.js`), execArgv: [...heap] };
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { entry: fileURLToPath(new URL(`./${name}.ts`, from)), execArgv: ['--import', loader, ...heap] };
}

/**
 * A robot's process: its heap limit, and a young generation of 4 MB semi-spaces instead of V8's 16.
 * Robots stream (a row in, a row out), so nearly everything they make dies young: with the default, V8
 * let the FIE robot's peak RSS reach 216 MB at 1,000,000 entries; with 4 MB it stays at 186 MB for the
 * same CPU time (scripts/bench/fie-robot-bench.ts runs its robot with these flags too).
 */
export function robotHeapFlags(memoryMb: number): string[] {
  return [`--max-old-space-size=${memoryMb}`, '--max-semi-space-size=4'];
}
