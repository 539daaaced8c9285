/**
 * `npm run typecheck`: every TypeScript project of the repo (each process has its own types: DOM for the
 * renderer, Node for the server and main, neither for shared), checked by tsc two at a time, as this kind
 * of machine has two cores. Prints each project's errors as tsc writes them; exits 1 if any project fails.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';

const PROJECTS = [
  'shared/tsconfig.json',
  'server/tsconfig.json',
  'main/tsconfig.json',
  'preload/tsconfig.json',
  'renderer/tsconfig.json',
  'e2e/tsconfig.json',
  'scripts/tsconfig.json',
  'resources/flows/tsconfig.json',
  'resources/flows/tsconfig.test.json',
  'standins/portal/tsconfig.json',
  'standins/fier/tsconfig.json',
  'standins/a3-importer/tsconfig.json',
  'standins/red-online/tsconfig.json',
  'standins/dehu/tsconfig.json',
  'standins/mail-providers/tsconfig.json',
  'standins/stripe/tsconfig.json',
  'standins/macro-site/tsconfig.json',
];

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function check(project: string): Promise<{ project: string; ok: boolean; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => done({ project, ok: code === 0, output, seconds: (performance.now() - started) / 1000 }));
  });
}

const queue = [...PROJECTS];
const failed: string[] = [];
async function lane(): Promise<void> {
  for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
    const result = await check(project);
    console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.project} (${result.seconds.toFixed(1)} s)`);
    if (!result.ok) {
      failed.push(result.project);
      process.stdout.write(result.output);
    }
  }
}
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, lane));
if (failed.length > 0) {
  console.error(`Errores de tipos en ${failed.join(', ')}`);
  process.exit(1);
}
