/**
 * Issue 39 (2): every route that takes a large JSON body, at its largest, against a real listening
 * server. For each route: 3 requests of the largest valid-shaped body it accepts, sent at once, while
 * GET /api/health is polled; the health latencies and the server's peak RSS growth. Used by
 * server/http/big-bodies.test.ts (in-process server) and scripts/bench/big-bodies.ts (compiled server,
 * before and after), over HTTP only.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { escapedText, FINISH_BOUNDARY, fieEntries, fill, id64, lemaEnvio, multipartFinish, templateWithImages } from './big-body-payloads.ts';

export interface BigBodyCredentials {
  baseUrl: string;
  /** A signed-in member's session cookie (and the origin header the origin check wants). */
  cookie: string;
  /** A linked device's token. */
  deviceToken: string;
  /** A FIE document of the firm (for the routes that change one). */
  fieId: string;
}

export interface BigBodyRoute {
  name: string;
  method: 'POST' | 'PATCH' | 'PUT';
  path: (credentials: BigBodyCredentials) => string;
  auth: 'session' | 'device';
  /** The route's body limit in bytes (its JSON body may be this big). */
  limit: number;
  /** The largest valid-shaped body within `limit` (and the route's per-request item caps). */
  body: (limit: number) => string | Buffer;
  /** A body just over the limit (default: the largest one padded with spaces). */
  over?: (limit: number) => string | Buffer;
  /** Default application/json. */
  contentType?: string;
}

/** The caps a route's body is built within: the limits of the code measured. */
export interface BigBodyLimits {
  fieEntries: number;
  fieEntriesPerRequest: number;
  fieResults: number;
  fieResultsPerRequest: number;
  fieSelection: number;
  fieSelectionPerRequest: number;
  notificationsUpsert: number;
  notificationsPerRequest: number;
  altasResults: number;
  altasPerRequest: number;
  deviceFinish: number;
  /** Output files of a multipart finish, in all; null before multipart finishes. */
  deviceFinishFiles: number | null;
  /** Whether POST /api/fie/:id/entries exists (the paged FIE entries). */
  fieAppend: boolean;
  /** A document template's body (its images as data URLs); null before the document creator (issue 40). */
  documentTemplates: number | null;
  /** The longest data URL of one image block. */
  documentTemplateImage: number;
}

/** main before issue 39 (for the bench's "before" figures). */
export const LIMITS_BEFORE_ISSUE_39: BigBodyLimits = {
  fieEntries: 96 * 1024 * 1024,
  fieEntriesPerRequest: 20_000,
  fieResults: 32 * 1024 * 1024,
  fieResultsPerRequest: 20_000,
  fieSelection: 4 * 1024 * 1024,
  fieSelectionPerRequest: 20_000,
  notificationsUpsert: 8 * 1024 * 1024,
  notificationsPerRequest: 1_000,
  altasResults: 2 * 1024 * 1024,
  altasPerRequest: 500,
  deviceFinish: 60 * 1024 * 1024,
  deviceFinishFiles: null,
  fieAppend: false,
  documentTemplates: null,
  documentTemplateImage: 0,
};

export function bigBodyRoutes(limits: BigBodyLimits): BigBodyRoute[] {
  const fieResults = (limit: number) =>
    fill(limit, limits.fieResultsPerRequest, (items) => `{"results":[${items}]}`, (index) => `{"entryId":${id64(index)},"state":"error","error":${escapedText(1000)}}`);
  const altasResults = (limit: number) =>
    fill(limit, limits.altasPerRequest, (items) => `{"results":[${items}]}`, (index) => `{"submissionId":${id64(index)},"state":"error","message":${escapedText(1000)}}`);
  const altasA3Results = (limit: number) =>
    fill(limit, limits.altasPerRequest, (items) => `{"results":[${items}]}`, (index) => `{"submissionId":${id64(index)},"state":"error","error":${escapedText(1000)}}`);
  const selection = (limit: number) => fill(limit, limits.fieSelectionPerRequest, (items) => `{"entryIds":[${items}]}`, id64);
  const routes: BigBodyRoute[] = [
    { name: 'POST /api/fie', method: 'POST', path: () => '/api/fie', auth: 'session', limit: limits.fieEntries, body: (limit) => fieEntries(limit, limits.fieEntriesPerRequest, (items) => `{"date":"2025-01-15","entries":[${items}]}`) },
    { name: 'PATCH /api/fie', method: 'PATCH', path: () => '/api/fie', auth: 'session', limit: limits.fieEntries, body: (limit) => fieEntries(limit, limits.fieEntriesPerRequest, (items) => `{"_id":"__FIE_ID__","entries":[${items}]}`) },
  ];
  if (limits.fieAppend) {
    routes.push({ name: 'POST /api/fie/:id/entries', method: 'POST', path: (credentials) => `/api/fie/${credentials.fieId}/entries`, auth: 'session', limit: limits.fieEntries, body: (limit) => fieEntries(limit, limits.fieEntriesPerRequest, (items) => `{"entries":[${items}]}`) });
  }
  routes.push(
    { name: 'POST /api/fie/a3-results', method: 'POST', path: () => '/api/fie/a3-results', auth: 'session', limit: limits.fieResults, body: fieResults },
    { name: 'POST /api/fie/a3-records', method: 'POST', path: () => '/api/fie/a3-records', auth: 'session', limit: limits.fieSelection, body: selection },
    { name: 'POST /api/fie/export', method: 'POST', path: () => '/api/fie/export', auth: 'session', limit: limits.fieSelection, body: selection },
    {
      name: 'POST /api/notifications/robot/upsert',
      method: 'POST',
      path: () => '/api/notifications/robot/upsert',
      auth: 'device',
      limit: limits.notificationsUpsert,
      body: (limit) => fill(limit, limits.notificationsPerRequest, (items) => `{"fingerprint":"${'a'.repeat(64)}","pendientes":[${items}],"realizadas":[]}`, lemaEnvio),
    },
    { name: 'POST /api/form-to-flow-submission/red-results', method: 'POST', path: () => '/api/form-to-flow-submission/red-results', auth: 'session', limit: limits.altasResults, body: altasResults },
    { name: 'POST /api/form-to-flow-submission/a3-results', method: 'POST', path: () => '/api/form-to-flow-submission/a3-results', auth: 'session', limit: limits.altasResults, body: altasA3Results },
    {
      name: 'POST /api/device/runs/:runId/finish',
      method: 'POST',
      path: () => `/api/device/runs/${randomUUID()}/finish`,
      auth: 'device',
      limit: limits.deviceFinish,
      body: (limit) => {
        const wrap = (base64: string) => `{"kind":"result","result":"Success","usageUnits":0,"outputFolder":null,"outputFileNames":["salida.bin"],"outputs":[{"name":"salida.bin","base64":"${base64}"}]}`;
        const room = limit - Buffer.byteLength(wrap(''));
        return wrap('QUFB'.repeat(Math.max(0, Math.floor(room / 4))));
      },
    },
  );
  if (limits.documentTemplates !== null) {
    routes.push({ name: 'POST /api/documentcreator/templates', method: 'POST', path: () => '/api/documentcreator/templates', auth: 'session', limit: limits.documentTemplates, body: (limit) => templateWithImages(limit, limits.documentTemplateImage) });
  }
  if (limits.deviceFinishFiles !== null) {
    routes.push({
      name: 'POST /api/device/runs/:runId/finish (multipart)',
      method: 'POST',
      path: () => `/api/device/runs/${randomUUID()}/finish`,
      auth: 'device',
      limit: limits.deviceFinishFiles,
      contentType: `multipart/form-data; boundary=${FINISH_BOUNDARY}`,
      body: multipartFinish,
      over: (limit) => multipartFinish(limit + 1),
    });
  }
  return routes;
}

/** A firm, signed in, with a linked device and one small FIE document. */
export async function bigBodyCredentials(baseUrl: string, email = `cuerpos-${randomUUID().slice(0, 8)}@bench.es`): Promise<BigBodyCredentials> {
  const headers = { 'content-type': 'application/json', origin: baseUrl };
  const signUp = await fetch(`${baseUrl}/api/users`, { method: 'POST', headers, body: JSON.stringify({ name: 'Cuerpos Grandes', email, password: 'Banco-Pruebas-42' }) });
  if (signUp.status !== 201) throw new Error(`registro: ${signUp.status} ${await signUp.text()}`);
  const cookie = signUp.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const link = await fetch(`${baseUrl}/api/machines/link`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ machineHashCode: 'b'.repeat(64), machineName: 'PC de pruebas' }) });
  if (link.status !== 200 && link.status !== 201) throw new Error(`vincular: ${link.status} ${await link.text()}`);
  const { deviceToken } = (await link.json()) as { deviceToken: string };
  const created = await fetch(`${baseUrl}/api/fie`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify({ date: '2025-01-15', entries: [{ 9000: { value: 'x' } }] }) });
  if (created.status !== 201) throw new Error(`FIE: ${created.status} ${await created.text()}`);
  const { _id: fieId } = (await created.json()) as { _id: string };
  return { baseUrl, cookie, deviceToken, fieId };
}

/** A process's resident memory: now, and the peak since the last reset (Linux /proc; null elsewhere). */
export interface MemoryProbe {
  reset(): void;
  currentBytes(): number | null;
  peakBytes(): number | null;
}

export function procMemoryProbe(pid: number | 'self' = 'self'): MemoryProbe {
  const field = (name: string) => {
    try {
      const match = new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : null;
    } catch {
      return null;
    }
  };
  return {
    reset: () => {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // Not Linux, or not allowed: the peak is since the process started.
      }
    },
    currentBytes: () => field('VmRSS'),
    peakBytes: () => field('VmHWM'),
  };
}

/**
 * CPU time (ms) this process's main thread has used, from /proc (Linux; null elsewhere), in steps of the
 * kernel's clock tick (10 ms). What the event loop did while a health request waited: unlike the wall
 * time, it does not grow when other processes take the machine's cores.
 */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime: fields 14 and 15 of the line, 12 and 13 after the state.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export interface BigBodyFigures {
  route: string;
  bodyBytes: number;
  statuses: number[];
  seconds: number;
  healthSamples: number;
  healthP99Ms: number;
  healthMaxMs: number;
  /** With `threadCpu`: p99 of the main thread's CPU time spent while each health request waited (in-process server). */
  healthCpuP99Ms: number | null;
  /** Peak RSS during the requests minus RSS before them; null when it cannot be read. */
  rssGrowthBytes: number | null;
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export function requestInit(credentials: BigBodyCredentials, route: BigBodyRoute, body: string | Buffer): RequestInit {
  const auth: Record<string, string> = route.auth === 'device' ? { authorization: `Device ${credentials.deviceToken}` } : { cookie: credentials.cookie };
  return { method: route.method, headers: { 'content-type': route.contentType ?? 'application/json', origin: credentials.baseUrl, ...auth }, body: typeof body === 'string' ? body : new Uint8Array(body) };
}

/** The answer's status; 0 when the connection failed. */
async function send(credentials: BigBodyCredentials, route: BigBodyRoute, body: string | Buffer): Promise<number> {
  try {
    const response = await fetch(`${credentials.baseUrl}${route.path(credentials)}`, requestInit(credentials, route, body));
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * The requests sent from a worker thread: with the server in this process (the test), sending 3 bodies
 * of tens of MB is not counted as the server's work.
 */
async function workerSender(url: string, init: RequestInit, parallel: number): Promise<{ send: () => Promise<number[]> }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, init, parallel } = workerData;
    parentPort.once('message', () => {
      Promise.all(Array.from({ length: parallel }, () => fetch(url, init).then(async (r) => { await r.arrayBuffer(); return r.status; }, () => 0)))
        .then((statuses) => parentPort.postMessage(statuses));
    });
    parentPort.postMessage('ready');
  `;
  const worker = new Worker(code, { eval: true, workerData: { url, init, parallel } });
  // Its copy of the body is made before the measurement starts.
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    send: () =>
      new Promise<number[]>((resolve, reject) => {
        worker.once('message', (statuses: number[]) => {
          resolve(statuses);
          void worker.terminate();
        });
        worker.once('error', reject);
        worker.postMessage('go');
      }),
  };
}

/**
 * `parallel` requests of the route's largest body at once, /api/health polled all the while (one
 * request after the other, 5 ms apart, the last one awaited), and the server's memory.
 */
export async function measureBigBody(
  credentials: BigBodyCredentials,
  route: BigBodyRoute,
  memory: MemoryProbe,
  options: { parallel?: number; threadCpu?: () => number | null; worker?: boolean } = {},
): Promise<BigBodyFigures> {
  const parallel = options.parallel ?? 3;
  const built = route.body(route.limit);
  const body = typeof built === 'string' ? built.replace('__FIE_ID__', credentials.fieId) : built;
  // Once first, unmeasured: the route's code and schemas are compiled and warm, as on a server that has run a while.
  await send(credentials, route, body);
  const sender = options.worker ? await workerSender(`${credentials.baseUrl}${route.path(credentials)}`, requestInit(credentials, route, body), parallel) : null;
  memory.reset();
  const before = memory.currentBytes();
  const latencies: number[] = [];
  const cpuLatencies: number[] = [];
  let running = true;
  const polling = (async () => {
    while (running) {
      const started = performance.now();
      const cpuBefore = options.threadCpu?.() ?? null;
      // A failed health request counts as the time it took (and the run goes on).
      await fetch(`${credentials.baseUrl}/api/health`).then((response) => response.arrayBuffer()).catch(() => undefined);
      latencies.push(performance.now() - started);
      const cpuAfter = options.threadCpu?.() ?? null;
      if (cpuBefore !== null && cpuAfter !== null) cpuLatencies.push(cpuAfter - cpuBefore);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const started = performance.now();
  const statuses = sender ? await sender.send() : await Promise.all(Array.from({ length: parallel }, () => send(credentials, route, body)));
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await polling;
  const peak = memory.peakBytes();
  return {
    route: route.name,
    bodyBytes: Buffer.byteLength(body),
    statuses,
    seconds,
    healthSamples: latencies.length,
    healthP99Ms: percentile(latencies, 99),
    healthMaxMs: latencies.length ? Math.max(...latencies) : Number.NaN,
    healthCpuP99Ms: cpuLatencies.length ? percentile(cpuLatencies, 99) : null,
    rssGrowthBytes: peak === null || before === null ? null : peak - before,
  };
}

export function formatBigBodyFigures(figures: BigBodyFigures): string {
  const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
  return (
    `  ${figures.route.padEnd(46)} 3 × ${mb(figures.bodyBytes).padStart(8)} → ${figures.statuses.join('/')} en ${figures.seconds.toFixed(1)} s · ` +
    `/api/health p99 ${figures.healthP99Ms.toFixed(0)} ms, máx ${figures.healthMaxMs.toFixed(0)} ms (${figures.healthSamples})` +
    `${figures.healthCpuP99Ms === null ? '' : `, CPU del hilo p99 ${figures.healthCpuP99Ms.toFixed(0)} ms`} · ` +
    `RSS +${figures.rssGrowthBytes === null ? '?' : mb(figures.rssGrowthBytes)}`
  );
}
