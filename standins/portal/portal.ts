/**
 * Test-only stand-in for a Spanish administration portal where you log in with your digital certificate
 * (Sede Electrónica style, like DEHú's web access): an HTTPS server on 127.0.0.1 that asks every client for
 * a certificate (mutual TLS) and checks it itself against the given CAs, so that a missing, untrusted or
 * expired certificate gets a clear 403 page instead of a TLS failure. Groundwork for the desktop robots.
 *
 * Pages:
 *   /                       landing with an 'Acceder con certificado' link (open to anyone)
 *   /acceso                 reads the certificate, starts a session (cookie) and greets 'Bienvenido/a, <CN>' + NIF
 *   /buscar                 search form: justificantes by date range for a NIF (labelled inputs)
 *   /resultados?desde&hasta&nif   results table; selectors in SELECTORS
 *   /justificante/<id>.pdf  the document as a small real PDF naming the NIF and the id
 *   /salir                  ends the session
 * Every page but the landing needs a valid certificate (403) and then a session (302 to /).
 * The NIF comes from the subject's serialNumber (IDCES-<NIF>, persona física and representante) or, for
 * entity certificates, its organizationIdentifier (VATES-<CIF>).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { documentsFor, searchDocuments, type PortalDocument } from './documents.ts';
import { writeTextPdf } from './pdf.ts';

export interface StandinPortalOptions {
  /** PEM certificates of the CAs whose client certificates the portal accepts. */
  caCertificates: string[];
  /** PEM key and certificate the portal serves HTTPS with. */
  serverKey: string;
  serverCert: string;
  /** Default 0: any free port. */
  port?: number;
}

export interface StandinPortal {
  url: string;
  close(): Promise<void>;
}

/** The stable hooks a robot uses on these pages. */
export const SELECTORS = {
  loginLink: '#acceder-certificado',
  welcome: '[data-testid="bienvenida"]',
  holderNif: '[data-testid="nif-titular"]',
  searchLink: '#ir-busqueda',
  searchForm: '#form-busqueda',
  dateFrom: '#fecha-desde',
  dateTo: '#fecha-hasta',
  nif: '#nif',
  searchButton: '#buscar',
  resultsTable: '#tabla-resultados',
  resultRow: '[data-testid="fila-justificante"]',
  /** Cells inside a result row. */
  resultId: '[data-testid="id-justificante"]',
  resultDate: '[data-testid="fecha-justificante"]',
  resultConcept: '[data-testid="concepto-justificante"]',
  resultDownload: '[data-testid="descargar-justificante"]',
  resultCount: '[data-testid="numero-resultados"]',
  noResults: '[data-testid="sin-resultados"]',
  errorMessage: '[data-testid="mensaje-error"]',
  logoutLink: '#salir',
} as const;

const SESSION_COOKIE = 'SEDE_SESION';

interface Session {
  commonName: string;
  nif: string;
  fingerprint: string;
}

/** OpenSSL's verification codes for the cases a portal explains to the user. */
const CERTIFICATE_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'El certificado ha caducado.',
  CERT_NOT_YET_VALID: 'El certificado todavía no es válido.',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'El certificado está autofirmado y no es de una autoridad de certificación reconocida.',
  SELF_SIGNED_CERT_IN_CHAIN: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  CERT_SIGNATURE_FAILURE: 'La firma del certificado no es válida.',
};

export async function startStandinPortal(options: StandinPortalOptions): Promise<StandinPortal> {
  const sessions = new Map<string, Session>();
  const server: Server = createServer(
    {
      key: options.serverKey,
      cert: options.serverCert,
      ca: options.caCertificates,
      // Ask for a certificate but let the handshake finish, so the page can say what is wrong with it.
      requestCert: true,
      rejectUnauthorized: false,
    },
    (request, response) => {
      try {
        handle(request, response, sessions);
      } catch (error) {
        sendPage(response, 500, 'Error', `<p data-testid="mensaje-error">Error interno: ${escapeHtml(String(error))}</p>`);
      }
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function handle(request: IncomingMessage, response: ServerResponse, sessions: Map<string, Session>): void {
  const url = new URL(request.url ?? '/', 'https://portal.invalid');
  if (request.method !== 'GET') return sendPage(response, 405, 'Método no permitido', '<p data-testid="mensaje-error">Método no permitido.</p>');
  if (url.pathname === '/') return sendLanding(response);

  const certificate = checkCertificate(request.socket as TLSSocket);
  if (!certificate.ok) {
    return sendPage(response, 403, 'Acceso denegado', `<h1>Acceso denegado</h1><p data-testid="mensaje-error">${escapeHtml(certificate.reason)}</p><p><a href="/">Volver al inicio</a></p>`);
  }

  if (url.pathname === '/acceso') {
    const token = randomBytes(24).toString('base64url');
    sessions.set(token, certificate.session);
    response.setHeader('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax`);
    return sendWelcome(response, certificate.session);
  }

  const session = sessions.get(readCookie(request, SESSION_COOKIE) ?? '');
  // A session belongs to the certificate that opened it.
  if (!session || session.fingerprint !== certificate.session.fingerprint) {
    response.writeHead(302, { Location: '/' }).end();
    return;
  }

  if (url.pathname === '/buscar') return sendSearchForm(response, session);
  if (url.pathname === '/resultados') return sendResults(response, session, url.searchParams);
  if (url.pathname === '/salir') {
    sessions.delete(readCookie(request, SESSION_COOKIE) ?? '');
    response.writeHead(302, { Location: '/', 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; Max-Age=0` }).end();
    return;
  }
  const pdfMatch = /^\/justificante\/([A-Z0-9-]+)\.pdf$/.exec(url.pathname);
  if (pdfMatch) return sendPdf(response, session, pdfMatch[1]!);
  sendPage(response, 404, 'No encontrado', '<p data-testid="mensaje-error">La página solicitada no existe.</p>');
}

type CertificateCheck = { ok: true; session: Session } | { ok: false; reason: string };

function checkCertificate(socket: TLSSocket): CertificateCheck {
  const peer: PeerCertificate = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) return { ok: false, reason: 'No se ha presentado ningún certificado.' };
  if (!socket.authorized) {
    const code = String(socket.authorizationError ?? '');
    return { ok: false, reason: CERTIFICATE_REASONS[code] ?? `El certificado no es válido (${code}).` };
  }
  const nif = nifFromSubject(peer.subject);
  if (!nif) return { ok: false, reason: 'El certificado no contiene un NIF reconocible.' };
  return { ok: true, session: { commonName: first(peer.subject.CN) ?? nif, nif, fingerprint: peer.fingerprint256 } };
}

function nifFromSubject(subject: PeerCertificate['subject']): string | null {
  const fields = subject as unknown as Record<string, string | string[] | undefined>;
  const serialNumber = first(fields.serialNumber);
  if (serialNumber) return serialNumber.replace(/^IDCES-/i, '').toUpperCase();
  const organizationIdentifier = first(fields.organizationIdentifier ?? fields['2.5.4.97']);
  if (organizationIdentifier) return organizationIdentifier.replace(/^VATES-/i, '').toUpperCase();
  return null;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sendLanding(response: ServerResponse): void {
  sendPage(
    response,
    200,
    'Sede Electrónica de pruebas',
    `<h1>Sede Electrónica de pruebas</h1>
<p>Consulte sus justificantes y notificaciones.</p>
<p><a id="acceder-certificado" href="/acceso">Acceder con certificado</a></p>`,
  );
}

function sendWelcome(response: ServerResponse, session: Session): void {
  sendPage(
    response,
    200,
    'Área personal',
    `<h1 data-testid="bienvenida">Bienvenido/a, ${escapeHtml(session.commonName)}</h1>
<p>NIF: <span data-testid="nif-titular">${escapeHtml(session.nif)}</span></p>
<p><a id="ir-busqueda" href="/buscar">Buscar justificantes</a> · <a id="salir" href="/salir">Salir</a></p>`,
  );
}

function sendSearchForm(response: ServerResponse, session: Session): void {
  sendPage(
    response,
    200,
    'Buscar justificantes',
    `<h1>Buscar justificantes</h1>
<form id="form-busqueda" method="get" action="/resultados">
  <p><label for="nif">NIF del titular</label> <input id="nif" name="nif" value="${escapeHtml(session.nif)}" required></p>
  <p><label for="fecha-desde">Fecha desde</label> <input id="fecha-desde" name="desde" type="date"></p>
  <p><label for="fecha-hasta">Fecha hasta</label> <input id="fecha-hasta" name="hasta" type="date"></p>
  <p><button id="buscar" type="submit">Buscar</button></p>
</form>`,
  );
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function sendResults(response: ServerResponse, session: Session, query: URLSearchParams): void {
  const nif = (query.get('nif') ?? session.nif).trim().toUpperCase();
  const from = query.get('desde') ?? '';
  const to = query.get('hasta') ?? '';
  const error =
    nif !== session.nif
      ? 'El NIF consultado no coincide con el del certificado.'
      : [from, to].some((date) => date !== '' && !ISO_DATE.test(date))
        ? 'Las fechas deben tener el formato AAAA-MM-DD.'
        : from && to && from > to
          ? 'La fecha desde no puede ser posterior a la fecha hasta.'
          : null;
  if (error) {
    return sendPage(response, 400, 'Resultados', `<h1>Resultados</h1><p data-testid="mensaje-error">${escapeHtml(error)}</p><p><a href="/buscar">Nueva búsqueda</a></p>`);
  }
  const documents = searchDocuments(nif, from, to);
  const body =
    documents.length === 0
      ? '<p data-testid="sin-resultados">No hay justificantes en ese periodo.</p>'
      : `<table id="tabla-resultados">
<thead><tr><th>Identificador</th><th>Fecha</th><th>Concepto</th><th>Organismo emisor</th><th>Tipo</th><th>Documento</th></tr></thead>
<tbody>
${documents.map(resultRow).join('\n')}
</tbody>
</table>`;
  sendPage(
    response,
    200,
    'Resultados',
    `<h1>Resultados</h1>
<p><span data-testid="numero-resultados">${documents.length}</span> justificante(s) para el NIF ${escapeHtml(nif)}</p>
${body}
<p><a href="/buscar">Nueva búsqueda</a></p>`,
  );
}

function resultRow(document: PortalDocument): string {
  return `<tr data-testid="fila-justificante" data-id="${escapeHtml(document.id)}">
<td data-testid="id-justificante">${escapeHtml(document.id)}</td>
<td data-testid="fecha-justificante">${escapeHtml(document.date)}</td>
<td data-testid="concepto-justificante">${escapeHtml(document.concept)}</td>
<td>${escapeHtml(document.issuer)}</td>
<td>${escapeHtml(document.kind)}</td>
<td><a data-testid="descargar-justificante" href="/justificante/${encodeURIComponent(document.id)}.pdf" download>Descargar PDF</a></td>
</tr>`;
}

function sendPdf(response: ServerResponse, session: Session, id: string): void {
  const document = documentsFor(session.nif).find((candidate) => candidate.id === id);
  if (!document) return sendPage(response, 404, 'No encontrado', '<p data-testid="mensaje-error">El justificante no existe.</p>');
  const pdf = writeTextPdf(`Justificante ${document.id}`, [
    `Identificador: ${document.id}`,
    `NIF del titular: ${document.nif}`,
    `Concepto: ${document.concept}`,
    `Organismo emisor: ${document.issuer}`,
    `Fecha de puesta a disposición: ${document.date}`,
    `Tipo: ${document.kind}`,
  ]);
  response.writeHead(200, {
    'Content-Type': 'application/pdf',
    'Content-Length': pdf.length,
    'Content-Disposition': `attachment; filename="${document.id}.pdf"`,
  });
  response.end(pdf);
}

function sendPage(response: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body></html>`;
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}

function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
