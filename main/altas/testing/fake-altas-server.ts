/**
 * Test-only: the altas API's device side as the server answers it (shared/api/altas.ts), in memory on a
 * loopback HTTP port: pending, red-records, red-results, a3-rows and a3-results. A submission without a
 * record (its data incomplete), or one already done (or not in RED yet, for A3), comes back as a problem. Only the given device token is let in; every
 * request is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { altasPaths, type A3AltaRow, type RedAltaRecord, type RedResult } from '#shared/api/altas.ts';
import { a3AltaRow, redAltaRecord } from './fixtures.ts';

export interface FakeSubmission {
  _id: string;
  title: string;
  /** Null: the server cannot build the robots' input (its problem is `problem`). */
  record: RedAltaRecord | null;
  row: A3AltaRow | null;
  problem: string;
  redAt: string | null;
  afiFile: string | null;
  a3At: string | null;
  lastError: string | null;
}

export interface FakeAltasServer {
  url: string;
  deviceToken: string;
  submissions: FakeSubmission[];
  requests: { method: string; path: string; authorized: boolean; body: unknown }[];
  close(): Promise<void>;
}

/** A complete submission (record and row built), or an incomplete one with `complete: false`. */
export function fakeSubmission(_id: string, overrides: Partial<FakeSubmission> & { complete?: boolean } = {}): FakeSubmission {
  const { complete = true, ...rest } = overrides;
  return {
    _id,
    title: `ANA PEREZ GARCIA - TALLERES PEREZ SL (${_id})`,
    record: complete ? redAltaRecord(_id) : null,
    row: complete ? a3AltaRow(_id) : null,
    problem: 'Faltan datos o no son válidos: NAF',
    redAt: null,
    afiFile: null,
    a3At: null,
    lastError: null,
    ...rest,
  };
}

export async function startFakeAltasServer(submissions: FakeSubmission[], deviceToken = 'tok_dispositivo_de_prueba_0123456789'): Promise<FakeAltasServer> {
  const requests: FakeAltasServer['requests'] = [];
  const find = (id: string) => submissions.find((each) => each._id === id);
  const problemOf = (each: FakeSubmission) => ({ submissionId: each._id, title: each.title, message: each.problem });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorized = request.headers.authorization === `Device ${deviceToken}`;
    const raw = (await readBody(request)).toString('utf8');
    const body: unknown = raw === '' ? undefined : JSON.parse(raw);
    requests.push({ method: request.method ?? '', path: url.pathname, authorized, body });
    if (!authorized) return send(response, 401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'Este dispositivo ya no está conectado a tu cuenta' });

    if (request.method === 'GET' && url.pathname === altasPaths.pending) {
      const view = (each: FakeSubmission) => ({ _id: each._id, title: each.title });
      return send(response, 200, {
        red: submissions.filter((each) => each.redAt === null && each.afiFile === null).map(view),
        a3: submissions.filter((each) => each.redAt !== null && each.a3At === null).map(view),
      });
    }
    if (request.method === 'POST' && (url.pathname === altasPaths.redRecords || url.pathname === altasPaths.a3Rows)) {
      const forRed = url.pathname === altasPaths.redRecords;
      const chosen = (body as { ids: string[] }).ids.map(find).filter((each) => each !== undefined);
      // The server's refusals (server/modules/altas/robot.ts): done already, or not in RED yet for A3.
      const refusal = (each: FakeSubmission): string | null => {
        if (forRed) return each.redAt !== null ? 'Esta alta ya está registrada en Sistema RED' : null;
        return each.redAt === null ? 'Esta alta aún no está registrada en Sistema RED' : each.a3At !== null ? 'Esta alta ya está en A3' : null;
      };
      const problems = chosen.flatMap((each) => {
        const refused = refusal(each);
        if (refused !== null) return [{ ...problemOf(each), message: refused }];
        return each.record === null ? [problemOf(each)] : [];
      });
      const taken = chosen.filter((each) => refusal(each) === null);
      if (forRed) return send(response, 200, { records: taken.flatMap((each) => (each.record ? [each.record] : [])), problems });
      return send(response, 200, { rows: taken.flatMap((each) => (each.row ? [each.row] : [])), problems });
    }
    if (request.method === 'POST' && url.pathname === altasPaths.redResults) {
      let updated = 0;
      for (const result of (body as { results: RedResult[] }).results) {
        const each = find(result.submissionId);
        if (!each) continue;
        if (result.state === 'registered') each.redAt = new Date().toISOString();
        if (result.state === 'afi-written') each.afiFile = result.afiFile ?? null;
        each.lastError = result.state === 'error' ? result.message : null;
        updated += 1;
      }
      return send(response, 200, { updated });
    }
    if (request.method === 'POST' && url.pathname === altasPaths.a3Results) {
      let updated = 0;
      for (const result of (body as { results: { submissionId: string; state: 'synced' | 'error'; error: string | null }[] }).results) {
        const each = find(result.submissionId);
        if (!each) continue;
        if (result.state === 'synced') each.a3At = new Date().toISOString();
        each.lastError = result.error;
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
    submissions,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
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
