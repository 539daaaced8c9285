/**
 * `npm run checks`: the type check, the lint (ESLint and dependency-cruiser) and the Electron lint at
 * once, each one's output printed whole when it ends. One after another they took ~2.5 min on a
 * 2-core machine, with the lint using one core while the type check's two lanes waited on each other.
 * Exits 1 if any failed.
 */
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'lint:electron'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function check(script: string): Promise<boolean> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(npm, ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n── npm run ${script}: ${code === 0 ? 'ok' : 'FALLA'} (${seconds} s)\n${output}`);
      done(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(check));
const failed = CHECKS.filter((_, index) => !results[index]);
if (failed.length > 0) {
  console.error(`\nFallan: ${failed.join(', ')}`);
  process.exit(1);
}
