/**
 * Issue 39 (2) for `npm run bench`: each route that takes a large JSON body, 3 requests of its largest
 * body at once against the compiled server, with GET /api/health polled meanwhile and the server's peak
 * RSS growth (server/test/big-bodies.ts; goal: health p99 ≤ 100 ms, RSS growth ≤ 300 MB).
 * `npx tsx scripts/bench/big-bodies.ts` runs it alone (it builds the server first);
 * `npx tsx scripts/bench/big-bodies.ts --before /work/before/dist/server/index.js` measures a server
 * built from main before issue 39, with that code's limits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCompiledServer, stop } from '../../e2e/processes.ts';
import {
  bigBodyCredentials, bigBodyRoutes, formatBigBodyFigures, measureBigBody, procMemoryProbe, LIMITS_BEFORE_ISSUE_39, type BigBodyLimits,
} from '../../server/test/big-bodies.ts';
import { BIG_BODY_LIMITS } from '../../server/test/big-body-limits.ts';
import { goalVerdict } from './stats.ts';

export async function runBigBodiesBench(entry: string, limits: BigBodyLimits = BIG_BODY_LIMITS): Promise<string[]> {
  const lines: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-bodies-'));
  const server = await startCompiledServer(entry, { dataDir, env: { LOG_LEVEL: 'warn' } });
  try {
    const credentials = await bigBodyCredentials(server.baseUrl);
    const memory = procMemoryProbe(server.child.pid as number);
    const checks: { ok: boolean; what: string }[] = [];
    for (const route of bigBodyRoutes(limits)) {
      // Sent from a worker thread: this process's own event loop stays free to time /api/health.
      const figures = await measureBigBody(credentials, route, memory, { worker: true });
      lines.push(formatBigBodyFigures(figures));
      if (process.env.BENCH_PROGRESS) console.log(lines.at(-1));
      checks.push({ ok: figures.healthP99Ms <= 100 && (figures.rssGrowthBytes ?? 0) <= 300_000_000, what: `${route.name}: health p99 ≤ 100 ms y RSS ≤ +300 MB` });
    }
    lines.push(`  objetivos: ${goalVerdict(checks)}`);
  } finally {
    await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = process.argv.indexOf('--before');
  if (before !== -1) {
    for (const line of await runBigBodiesBench(process.argv[before + 1] ?? '', LIMITS_BEFORE_ISSUE_39)) console.log(line);
  } else {
    const { buildServerCopy } = await import('../build-server.ts');
    const build = await buildServerCopy();
    try {
      for (const line of await runBigBodiesBench(build.entry)) console.log(line);
    } finally {
      await rm(build.dir, { recursive: true, force: true });
    }
  }
}
