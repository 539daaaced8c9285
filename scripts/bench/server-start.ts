import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, stop, waitFor } from '../../e2e/processes.ts';

/**
 * How the server is started: the compiled bundle `npm start` runs, server/index.ts through tsx (`npm run
 * dev`), or a bare Fastify hello-world (bare-fastify.mjs), the yardstick a cold start is compared with.
 */
export type ServerCommand = { kind: 'compiled'; entry: string } | { kind: 'tsx' } | { kind: 'bare' };

function args(command: ServerCommand): string[] {
  if (command.kind === 'compiled') return ['--enable-source-maps', command.entry];
  if (command.kind === 'bare') return [fileURLToPath(new URL('./bare-fastify.mjs', import.meta.url))];
  return ['--import', 'tsx', 'server/index.ts'];
}

/** How often a cold start asks for its first 200: waitFor's 100 ms steps were a third of bare Fastify's start. */
const COLD_START_POLL_MS = 5;

/** Milliseconds from spawning the server (fresh database: migrations and seed included) to its first 200. */
export async function measureColdStart(command: ServerCommand): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-'));
  const port = await freePort();
  const started = performance.now();
  const server = startProcess('node', args(command), { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test' });
  try {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/api/health`).then((response) => response.status, () => 0);
      if (status === 200) return performance.now() - started;
      if (performance.now() - started > 60_000) throw new Error(`Timed out waiting for the server. Output so far:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, COLD_START_POLL_MS));
    }
  } finally {
    await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts a server for other measurements (serving WEB_ROOT, else dist/renderer); the caller stops it.
 * With a dataDir it runs on that database (kept on stop); else on a fresh one, removed on stop.
 */
export async function startBenchServer(command: ServerCommand, options: { dataDir?: string } = {}) {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'autoasesor-bench-')));
  const port = await freePort();
  const server = startProcess('node', args(command), { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test' });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor('the server', async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 60_000, server.output);
  return {
    baseUrl,
    dataDir,
    pid: server.child.pid,
    stop: async () => {
      await stop(server.child);
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
