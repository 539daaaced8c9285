/**
 * npm run bench: prints the figures we watch. Not a test: nothing here passes or fails on a number.
 *  - the gzip size of the JS that /auth loads (route chunks are lazy, so this is what a sign-in costs)
 *  - the server's cold start to its first 200, on a fresh database (median of 3)
 *  - FIE decode throughput beside raw Latin-1 decode + line split
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measureRouteScripts } from './bench/web-bundle.ts';
import { measureColdStart, startBenchServer } from './bench/server-start.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

if (!existsSync('dist/renderer/index.html') || process.argv.includes('--build')) {
  execSync('npm run -s build:web', { stdio: 'inherit' });
}

console.log('== Web bundle');
const server = await startBenchServer();
try {
  const demo = { email: 'demo@autoasesor.es', password: 'Demo1234!' };
  for (const [label, route, signIn] of [['/auth (signed out)', '/auth', undefined], ['/home (signed in)', '/home', demo]] as const) {
    const { files, rawBytes, gzipBytes } = await measureRouteScripts(`${server.baseUrl}${route}`, signIn);
    console.log(`${label.padEnd(20)} JS loaded: ${files} files, ${kb(rawBytes)} raw, ${kb(gzipBytes)} gzip`);
  }
} finally {
  await server.stop();
}

console.log('== Server cold start (spawn -> first 200 on /api/health, fresh SQLite)');
const runs: number[] = [];
for (let i = 0; i < 3; i++) runs.push(await measureColdStart());
runs.sort((a, b) => a - b);
console.log(`median ${runs[1]?.toFixed(0)} ms (runs: ${runs.map((ms) => ms.toFixed(0)).join(', ')} ms)`);

console.log('== FIE decoding');
const fieBench = './bench/fie-bench.ts';
if (existsSync(new URL(fieBench, import.meta.url))) {
  const { runFieBench } = (await import(fieBench)) as { runFieBench: () => Promise<string[]> };
  for (const line of await runFieBench()) console.log(line);
} else {
  console.log('(not built yet)');
}
