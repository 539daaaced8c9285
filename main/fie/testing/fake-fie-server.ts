/**
 * Test-only: the FIE API's device side as the server answers it (shared/api/fie.ts), in memory on a
 * loopback HTTP port: upload (multipart 'files', decoded with the shared decoder, one document per
 * content hash), the pending list, a3-records (shared/a3 toA3SyncRecord) and a3-results. Only the
 * given device token is let in. Every request is recorded.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toA3SyncRecord } from '#shared/a3/sync-record.ts';
import type { FieEntryView, FieUploadResult } from '#shared/api/fie.ts';
import { fiePaths } from '#shared/api/fie.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { isFieTypeDisabled } from '#shared/fie/labels.ts';
import type { FieEntry } from '#shared/fie/types.ts';

export interface FakeFieEntry {
  _id: string;
  fieId: string;
  entry: FieEntry;
  a3sync: 'pending' | 'synced' | 'error' | 'excluded';
  a3Error: string | null;
  runId: string | null;
}

export interface FakeFieServer {
  url: string;
  deviceToken: string;
  documents: { _id: string; fileName: string; hash: string }[];
  entries: FakeFieEntry[];
  requests: { method: string; path: string; authorized: boolean }[];
  close(): Promise<void>;
}

export async function startFakeFieServer(deviceToken = 'tok_dispositivo_de_prueba_0123456789'): Promise<FakeFieServer> {
  const documents: FakeFieServer['documents'] = [];
  const entries: FakeFieEntry[] = [];
  const requests: FakeFieServer['requests'] = [];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorized = request.headers.authorization === `Device ${deviceToken}`;
    requests.push({ method: request.method ?? '', path: `${url.pathname}${url.search}`, authorized });
    if (!authorized) return send(response, 401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'Este dispositivo ya no está conectado a tu cuenta' });
    const body = await readBody(request);

    if (request.method === 'POST' && url.pathname === fiePaths.upload) {
      const form = await new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body }).formData();
      const results: FieUploadResult[] = [];
      for (const value of form.getAll('files')) {
        if (typeof value === 'string') continue;
        const bytes = new Uint8Array(await value.arrayBuffer());
        const hash = createHash('sha256').update(bytes).digest('hex');
        const before = documents.find((document) => document.hash === hash);
        if (before) {
          results.push({ fileName: value.name, status: 'already-added', documentId: before._id, entries: 0, linkedEntries: 0, reason: null });
          continue;
        }
        const decoded = decodeFie(bytes);
        if (decoded.ignored || decoded.entries.length === 0) {
          results.push({ fileName: value.name, status: 'failed', documentId: null, entries: 0, linkedEntries: 0, reason: decoded.reason ?? 'No es un FIE' });
          continue;
        }
        const _id = randomUUID();
        documents.push({ _id, fileName: value.name, hash });
        for (const entry of decoded.entries) {
          entries.push({ _id: randomUUID(), fieId: _id, entry, a3sync: isFieTypeDisabled(entry.type) ? 'excluded' : 'pending', a3Error: null, runId: null });
        }
        results.push({ fileName: value.name, status: 'processed', documentId: _id, entries: decoded.entries.length, linkedEntries: 0, reason: null });
      }
      const count = (status: FieUploadResult['status']) => results.filter((result) => result.status === status).length;
      return send(response, 200, { results, processed: count('processed'), failed: count('failed'), alreadyAdded: count('already-added') });
    }

    if (request.method === 'GET' && url.pathname === fiePaths.fie) {
      const state = url.searchParams.get('a3');
      const items = documents
        .map((document) => ({
          _id: document._id,
          date: '2026-11-25',
          registryDate: null,
          fileName: document.fileName,
          source: 'text',
          version: 'FIE4',
          createdAt: new Date().toISOString(),
          entryCount: entries.filter((each) => each.fieId === document._id).length,
          entries: entries.filter((each) => each.fieId === document._id && (state === null || each.a3sync === state)).map(view),
        }))
        .filter((document) => document.entries.length > 0);
      return send(response, 200, { items });
    }

    if (request.method === 'POST' && url.pathname === fiePaths.a3Records) {
      const { entryIds } = JSON.parse(body.toString('utf8')) as { entryIds: string[] };
      const records = entries
        .filter((each) => entryIds.includes(each._id) && each.a3sync !== 'excluded')
        .map((each) => ({ entryId: each._id, ...toA3SyncRecord(each.entry, { fieId: each.fieId }) }));
      return send(response, 200, { records });
    }

    if (request.method === 'POST' && url.pathname === fiePaths.a3Results) {
      const { runId, results } = JSON.parse(body.toString('utf8')) as { runId?: string; results: { entryId: string; state: 'synced' | 'error'; error: string | null }[] };
      let updated = 0;
      for (const result of results) {
        const entry = entries.find((each) => each._id === result.entryId);
        if (!entry) continue;
        entry.a3sync = result.state;
        entry.a3Error = result.error;
        entry.runId = runId ?? null;
        updated += 1;
      }
      return send(response, 200, { updated });
    }
    send(response, 404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { statusCode: 500, code: 'INTERNAL', message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deviceToken,
    documents,
    entries,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// Typed with the shared view so a field added to the API fails the type check here, not a test run.
function view(each: FakeFieEntry): FieEntryView {
  const { entry } = each;
  return {
    _id: each._id,
    fieId: each.fieId,
    type: entry.type,
    typeLabel: entry.type,
    disabled: isFieTypeDisabled(entry.type),
    fullname: entry.fullname ?? '',
    nif: entry.nif,
    companyName: null,
    ccc: null,
    formattedCcc: null,
    registrationDate: null,
    leaveStart: null,
    leaveEnd: null,
    duration: null,
    shortDuration: entry.shortDuration,
    isCanceled: entry.isCanceled,
    contingency: null,
    incidence: null,
    a3sync: each.a3sync,
    a3SyncedAt: null,
    lastError: each.a3Error,
    confirmations: [],
  };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
