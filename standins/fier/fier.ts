/**
 * Test-only stand-in for FIER, the Sistema RED Online service where a company (or its asesoría, with a
 * RED authorisation) downloads the FIE files the INSS sent it (external-systems §3). An HTTPS server on
 * 127.0.0.1 that asks every client for a certificate (mutual TLS) and checks it against the given CAs,
 * answering a JSON 403 with the reason for a missing or untrusted one. The research found no wire format,
 * so the API is the client's (main/siltra/fier-client.ts FIER_PATHS):
 *
 *   GET /fier/ficheros?fechaDesde=yyyy-mm-dd&fechaHasta=yyyy-mm-dd   { ficheros: [{ id, nombre, fecha, tamano }] }
 *                                                                    400 { mensaje } for a bad or longer than 31-day period
 *   GET /fier/ficheros/<id>                                          the file (application/octet-stream), 404 { mensaje }
 *
 * Every request is recorded with the NIF of the certificate that made it.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { FierStandinFile } from './files.ts';

export const FIER_STANDIN_MAX_DAYS = 31;

export interface StandinFierOptions {
  /** PEM certificates of the CAs whose client certificates FIER accepts. */
  caCertificates: string[];
  serverKey: string;
  serverCert: string;
  files: FierStandinFile[];
  port?: number;
}

export interface StandinFier {
  url: string;
  /** Every request: path and the NIF of its certificate (null when refused). */
  requests: { path: string; nif: string | null; status: number }[];
  /** Adds files while it runs (a new day's FIE arrives). */
  add(...files: FierStandinFile[]): void;
  close(): Promise<void>;
}

const CERTIFICATE_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'El certificado ha caducado.',
  CERT_NOT_YET_VALID: 'El certificado todavía no es válido.',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'El certificado está autofirmado y no es de una autoridad de certificación reconocida.',
  SELF_SIGNED_CERT_IN_CHAIN: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
};

export async function startStandinFier(options: StandinFierOptions): Promise<StandinFier> {
  const files = [...options.files];
  const requests: StandinFier['requests'] = [];
  const server: Server = createServer(
    { key: options.serverKey, cert: options.serverCert, ca: options.caCertificates, requestCert: true, rejectUnauthorized: false },
    (request, response) => {
      const path = request.url ?? '/';
      const check = checkCertificate(request.socket as TLSSocket);
      const status = check.ok ? handle(request, response, files) : sendJson(response, 403, { mensaje: `Acceso denegado a FIER. ${check.reason}` });
      requests.push({ path, nif: check.ok ? check.nif : null, status });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    add: (...more) => void files.push(...more),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function handle(request: IncomingMessage, response: ServerResponse, files: FierStandinFile[]): number {
  const url = new URL(request.url ?? '/', 'https://fier.invalid');
  if (request.method !== 'GET') return sendJson(response, 405, { mensaje: 'Método no permitido.' });
  if (url.pathname === '/fier/ficheros') {
    const from = url.searchParams.get('fechaDesde') ?? '';
    const to = url.searchParams.get('fechaHasta') ?? '';
    if (!isDay(from) || !isDay(to)) return sendJson(response, 400, { mensaje: 'Indique la fecha desde y la fecha hasta (aaaa-mm-dd).' });
    if (from > to) return sendJson(response, 400, { mensaje: 'La fecha desde no puede ser posterior a la fecha hasta.' });
    if ((Date.parse(to) - Date.parse(from)) / 86_400_000 + 1 > FIER_STANDIN_MAX_DAYS) {
      return sendJson(response, 400, { mensaje: `El periodo de consulta no puede superar ${FIER_STANDIN_MAX_DAYS} días.` });
    }
    const ficheros = files
      .filter((file) => file.fecha >= from && file.fecha <= to)
      .map((file) => ({ id: file.id, nombre: file.nombre, fecha: file.fecha, tamano: file.bytes.byteLength }));
    return sendJson(response, 200, { ficheros });
  }
  const download = /^\/fier\/ficheros\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
  if (download) {
    const file = files.find((candidate) => candidate.id === download[1]);
    if (!file) return sendJson(response, 404, { mensaje: 'El fichero solicitado no existe o ya no está disponible.' });
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(file.bytes.byteLength),
      'content-disposition': `attachment; filename="${file.nombre}"`,
    });
    response.end(Buffer.from(file.bytes));
    return 200;
  }
  return sendJson(response, 404, { mensaje: 'Recurso no encontrado.' });
}

function sendJson(response: ServerResponse, status: number, body: unknown): number {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
  return status;
}

const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));

type CertificateCheck = { ok: true; nif: string } | { ok: false; reason: string };

function checkCertificate(socket: TLSSocket): CertificateCheck {
  const peer: PeerCertificate = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) return { ok: false, reason: 'No se ha presentado ningún certificado.' };
  if (!socket.authorized) {
    const code = String(socket.authorizationError ?? '');
    return { ok: false, reason: CERTIFICATE_REASONS[code] ?? `El certificado no es válido (${code}).` };
  }
  const subject = peer.subject as unknown as Record<string, string | string[] | undefined>;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const serialNumber = first(subject.serialNumber);
  const organization = first(subject.organizationIdentifier ?? subject['2.5.4.97']);
  const nif = serialNumber?.replace(/^IDCES-/i, '') ?? organization?.replace(/^VATES-/i, '') ?? null;
  if (!nif) return { ok: false, reason: 'El certificado no contiene un NIF reconocible.' };
  return { ok: true, nif: nif.toUpperCase() };
}
