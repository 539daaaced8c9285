/**
 * A small in-test server that speaks the device API of shared/api/devices.ts (node:http, bodies
 * parsed with the shared schemas), with one machine and its token. Tests queue runs, stop them, take
 * their lease away or revoke the token, and read what the device sent.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeviceRunOutcome, DeviceRunReport, LeasedRun } from '#shared/api/devices.ts';
import { fileInputValueSchema } from '#shared/api/flows.ts';
import {
  claimRunRequestSchema,
  DEVICE_TOKEN_INVALID_MESSAGE,
  deviceRunOutcomeSchema,
  deviceRunReportSchema,
  devicesPaths,
  LEASE_LOST_MESSAGE,
  nextRunQuerySchema,
} from '#shared/api/devices.ts';

export const ALREADY_STARTED_MESSAGE = 'Esta ejecución ya se ha iniciado';

interface FakeRun {
  run: LeasedRun;
  state: 'queued' | 'running' | 'closed';
  stopRequested: boolean;
}

export interface FakeDeviceApi {
  url: string;
  token: string;
  machine: { _id: string; name: string };
  /** Queues a run for this machine; a waiting long poll gets it at once. */
  queue(run?: Partial<LeasedRun>): LeasedRun;
  /** The user pressed stop: the next report answers stop: true. */
  requestStop(runId: string): void;
  /** The server closed the run (lease expired): reports and finish now get 409. */
  loseLease(runId: string): void;
  /** The token is revoked: every call gets 401. */
  revoke(): void;
  /** Keeps a file as the server keeps an upload; a run's FileUpload input names it by the returned value. */
  upload(name: string, data: string | Uint8Array): { uploadId: string; name: string };
  /** The next `times` downloads of this upload send half its bytes and cut the connection. */
  cutUpload(uploadId: string, times?: number): void;
  /** Downloads of this upload wait until the returned function is called (then answer as the run is by then). */
  holdUpload(uploadId: string): () => void;
  /** The next `count` device calls answer `status` (a server restarting). */
  failNext(count: number, status: number): void;
  state(runId: string): FakeRun['state'] | undefined;
  reports: Map<string, DeviceRunReport[]>;
  finishes: Map<string, DeviceRunOutcome[]>;
  /** Every call: method, path and when it arrived. */
  calls: { method: string; path: string; at: number }[];
  /** Bodies the schemas refused (should stay empty: the device sends what the contract says). */
  badBodies: unknown[];
  close(): Promise<void>;
}

export async function startFakeDeviceApi(): Promise<FakeDeviceApi> {
  const token = `tok_${randomUUID().replaceAll('-', '')}`;
  const machine = { _id: randomUUID(), name: 'OFICINA-01' };
  const runs = new Map<string, FakeRun>();
  const reports = new Map<string, DeviceRunReport[]>();
  const finishes = new Map<string, DeviceRunOutcome[]>();
  const calls: FakeDeviceApi['calls'] = [];
  const badBodies: unknown[] = [];
  const waiting = new Set<() => void>();
  const uploads = new Map<string, Buffer>();
  const cuts = new Map<string, number>();
  const holds = new Map<string, Promise<void>>();
  let revoked = false;
  let failures: { count: number; status: number } = { count: 0, status: 503 };

  const send = (response: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const error = (response: ServerResponse, status: number, message: string) =>
    send(response, status, { statusCode: status, code: status === 401 ? 'UNAUTHORIZED' : status === 409 ? 'CONFLICT' : 'BAD_REQUEST', message });

  const lease = (entry: FakeRun) => {
    entry.state = 'running';
    return { run: entry.run };
  };
  const firstQueued = () => [...runs.values()].find((entry) => entry.state === 'queued');

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    calls.push({ method: request.method ?? '', path: url.pathname, at: Date.now() });
    const body = await readJson(request);
    if (failures.count > 0) {
      failures.count -= 1;
      return error(response, failures.status, 'Servidor no disponible');
    }
    if (revoked || request.headers.authorization !== `Device ${token}`) return error(response, 401, DEVICE_TOKEN_INVALID_MESSAGE);

    if (request.method === 'GET' && url.pathname === devicesPaths.me) {
      return send(response, 200, { machine, user: { email: 'ana@asesoria.example', name: 'Ana' } });
    }
    if (request.method === 'GET' && url.pathname === devicesPaths.nextRun) {
      const { wait } = nextRunQuerySchema.parse(Object.fromEntries(url.searchParams));
      const deadline = Date.now() + wait * 1000;
      for (;;) {
        const queued = firstQueued();
        if (queued) return send(response, 200, lease(queued));
        const left = deadline - Date.now();
        if (left <= 0 || request.destroyed) return send(response, 204);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiting.add(wake);
          request.once('close', wake);
        });
        if (response.destroyed || response.writableEnded) return;
      }
    }
    if (request.method === 'POST' && url.pathname === devicesPaths.claimRun) {
      const parsed = claimRunRequestSchema.safeParse(body);
      if (!parsed.success) return bad(response, body);
      const entry = [...runs.values()].find((candidate) => candidate.run.executionToken === parsed.data.executionToken);
      if (!entry) return error(response, 404, 'No se ha encontrado esta ejecución');
      if (entry.state !== 'queued') return error(response, 409, ALREADY_STARTED_MESSAGE);
      return send(response, 200, lease(entry));
    }
    const fileRoute = /^\/api\/device\/runs\/([^/]+)\/files\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && fileRoute) {
      const [, runId, uploadId] = fileRoute as unknown as [string, string, string];
      await holds.get(uploadId);
      const entry = runs.get(runId);
      if (!entry || entry.state === 'queued') return error(response, 404, 'No se ha encontrado esta ejecución');
      if (entry.state !== 'running') return error(response, 409, LEASE_LOST_MESSAGE);
      const named = entry.run.fileInputs.some((key) => fileInputValueSchema.safeParse(entry.run.inputs[key]).data?.some((file) => file.uploadId === uploadId));
      const bytes = uploads.get(uploadId);
      if (!named || !bytes) return error(response, 404, 'No se ha encontrado este archivo de la ejecución');
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
      const cutsLeft = cuts.get(uploadId) ?? 0;
      if (cutsLeft > 0) {
        cuts.set(uploadId, cutsLeft - 1);
        response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => response.socket?.destroy());
        return;
      }
      return response.end(bytes);
    }
    const runRoute = /^\/api\/device\/runs\/([^/]+)\/(report|finish)$/.exec(url.pathname);
    if (request.method === 'POST' && runRoute) {
      const [, runId, action] = runRoute as unknown as [string, string, 'report' | 'finish'];
      const entry = runs.get(runId);
      if (!entry) return error(response, 404, 'No se ha encontrado esta ejecución');
      if (action === 'report') {
        const parsed = deviceRunReportSchema.safeParse(body);
        if (!parsed.success) return bad(response, body);
        if (entry.state !== 'running') return error(response, 409, LEASE_LOST_MESSAGE);
        reports.set(runId, [...(reports.get(runId) ?? []), parsed.data]);
        return send(response, 200, { stop: entry.stopRequested, leaseUntil: new Date(Date.now() + entry.run.leaseMs).toISOString() });
      }
      const parsed = deviceRunOutcomeSchema.safeParse(body);
      if (!parsed.success) return bad(response, body);
      if (entry.state !== 'running') return error(response, 409, LEASE_LOST_MESSAGE);
      entry.state = 'closed';
      finishes.set(runId, [...(finishes.get(runId) ?? []), parsed.data as DeviceRunOutcome]);
      return send(response, 200, { closed: true });
    }
    return error(response, 404, 'No existe');
  }

  const bad = (response: ServerResponse, body: unknown) => {
    badBodies.push(body);
    error(response, 400, 'Cuerpo no válido');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((fault: unknown) => {
      if (!response.headersSent) error(response, 500, String(fault));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    machine,
    queue(partial = {}) {
      const run: LeasedRun = {
        runId: randomUUID(),
        executionToken: randomUUID().replaceAll('-', ''),
        flowId: 'descargar-justificantes',
        flowName: 'Descargar justificantes',
        inputs: { certificate: 'f'.repeat(64) },
        timeLimitSeconds: 600,
        remote: true,
        sendOutputToServer: false,
        leaseMs: 30_000,
        startedAt: '2026-11-23T08:30:15.000Z',
        fileInputs: [],
        ...partial,
      };
      runs.set(run.runId, { run, state: 'queued', stopRequested: false });
      for (const wake of [...waiting]) wake();
      return run;
    },
    requestStop(runId) {
      const entry = runs.get(runId);
      if (entry) entry.stopRequested = true;
    },
    loseLease(runId) {
      const entry = runs.get(runId);
      if (entry) entry.state = 'closed';
    },
    upload(name, data) {
      const uploadId = randomUUID();
      uploads.set(uploadId, Buffer.from(data));
      return { uploadId, name };
    },
    cutUpload(uploadId, times = 1) {
      cuts.set(uploadId, times);
    },
    holdUpload(uploadId) {
      let release = () => undefined as void;
      holds.set(uploadId, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        holds.delete(uploadId);
        release();
      };
    },
    revoke() {
      revoked = true;
    },
    failNext(count, status) {
      failures = { count, status };
    },
    state: (runId) => runs.get(runId)?.state,
    reports,
    finishes,
    calls,
    badBodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    // A finish with output files (deviceServerClient's finishBody): the outcome, then each file's bytes in order.
    const form = await new Response(new Uint8Array(Buffer.concat(chunks)), { headers: { 'content-type': type } }).formData();
    const outcome = JSON.parse(String(form.get('outcome'))) as { outputs?: { name: string; base64: string }[] };
    const files = await Promise.all(form.getAll('outputs').map(async (file) => Buffer.from(await (file as Blob).arrayBuffer())));
    return { ...outcome, outputs: (outcome.outputs ?? []).map((output, index) => ({ name: output.name, base64: files[index]?.toString('base64') ?? '' })) };
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
