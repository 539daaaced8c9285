/**
 * Test-only: a small website for the macros of issue 41 (the player, the recorder, the scraper, the
 * screens' browser tests). Every page is plain server-rendered HTML with readable roles and labels, so
 * Playwright's selector generator writes the same selectors every time:
 *
 *   /            index with a link to each page
 *   /acceso      a login that needs a client certificate (HTTPS only): 'Bienvenido/a, <CN>' and the NIF
 *   /login       user + password form ('gestor' / MACRO_SITE_PASSWORD) -> 'Hola, gestor'
 *   /listado     a paginated table of LIST_ROWS companies, PAGE_SIZE per page, with a 'Siguiente' link
 *   /tarjetas    repeated blocks (cards), for the scraper's lists
 *   /subir       a file upload whose result page shows the file's name and size
 *   /alta        NIF + Nombre -> 'Alta registrada nº <digits of the NIF>' or an error for a bad NIF
 *   /descargas   a link that downloads informe.csv
 *
 * Every page but the index has an 'Inicio' link to it, so a recording can go anywhere by clicking.
 *
 * Served over HTTP (url) and, with TLS options (the portal stand-in's test certificates by default),
 * over HTTPS too (httpsUrl), asking for a client certificate the way standins/portal does.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { portalOptions } from '../portal/test-certificates.ts';

export const MACRO_SITE_USER = 'gestor';
export const MACRO_SITE_PASSWORD = 'Clave-Secreta-1';
export const LIST_ROWS = 25;
export const PAGE_SIZE = 10;
export const LIST_HEADER = ['Código', 'Empresa', 'Provincia', 'Importe'] as const;
export const DOWNLOAD_NAME = 'informe.csv';
export const DOWNLOAD_TEXT = 'Código;Empresa\nE001;Asesoría Norte\n';

export interface MacroSiteTls {
  /** PEM certificates of the CAs whose client certificates /acceso accepts. */
  caCertificates: string[];
  serverKey: string;
  serverCert: string;
}

export interface MacroSite {
  /** http://127.0.0.1:<port> */
  url: string;
  /** https://127.0.0.1:<port> (same pages, plus the certificate login), when started with TLS. */
  httpsUrl?: string;
  close(): Promise<void>;
}

const NAMES = ['Asesoría Norte', 'Gestoría Sur', 'Talleres Ebro', 'Panadería Sol', 'Transportes Miño', 'Clínica Duero', 'Hostal Turia', 'Frutas Segura', 'Obras Tajo', 'Librería Júcar'];
const PROVINCES = ['Madrid', 'Sevilla', 'Zaragoza', 'Valencia', 'Ourense'];

/** Row i (0-based) of the list: deterministic, so a replay copies the same cells every time. */
export function listRow(index: number): string[] {
  const code = `E${String(index + 1).padStart(3, '0')}`;
  const name = `${NAMES[index % NAMES.length]} ${Math.floor(index / NAMES.length) + 1}`;
  const amount = (((index + 1) * 137.45) % 5000).toFixed(2).replace('.', ',');
  return [code, name, PROVINCES[index % PROVINCES.length]!, amount];
}

export const CARDS = [
  { title: 'Plan Básico', price: '10 €' },
  { title: 'Plan Despacho', price: '30 €' },
  { title: 'Plan Grande', price: '90 €' },
  { title: 'Plan Anual', price: '300 €' },
] as const;

/** The index's title: every other page has an 'Inicio' link back to it. */
const HOME_TITLE = 'Sitio de pruebas';

const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** A Spanish NIF or NIE with its control letter right. */
export function validNif(value: string): boolean {
  const nif = value.trim().toUpperCase();
  const match = /^([XYZ]|\d)(\d{7})([A-Z])$/.exec(nif);
  if (!match) return false;
  const first = match[1]!;
  const digits = `${'XYZ'.includes(first) ? 'XYZ'.indexOf(first) : first}${match[2]}`;
  return NIF_LETTERS[Number(digits) % 23] === match[3];
}

export async function startMacroSite(options: { tls?: MacroSiteTls | false; port?: number; httpsPort?: number } = {}): Promise<MacroSite> {
  const tls = options.tls === undefined ? portalOptions() : options.tls;
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => page(response, 500, 'Error', `<p data-testid="mensaje-error">Error interno: ${escapeHtml(String(error))}</p>`));
  };
  const servers: Server[] = [];
  const http = createHttpServer(handler);
  servers.push(http);
  const url = `http://127.0.0.1:${await listen(http, options.port ?? 0)}`;
  let httpsUrl: string | undefined;
  if (tls) {
    // Ask for a certificate but let the handshake finish: only /acceso needs one, and it says what is wrong.
    const https = createHttpsServer({ key: tls.serverKey, cert: tls.serverCert, ca: tls.caCertificates, requestCert: true, rejectUnauthorized: false }, handler);
    servers.push(https);
    httpsUrl = `https://127.0.0.1:${await listen(https, options.httpsPort ?? 0)}`;
  }
  return {
    url,
    ...(httpsUrl !== undefined && { httpsUrl }),
    close: async () => {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })));
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sitio.invalid');
  const post = request.method === 'POST';
  switch (url.pathname) {
    case '/':
      return page(response, 200, HOME_TITLE, `<h1>Sitio de pruebas de robots</h1>
<ul>
<li><a href="/acceso">Acceder con certificado</a></li>
<li><a href="/login">Iniciar sesión</a></li>
<li><a href="/listado">Listado de empresas</a></li>
<li><a href="/tarjetas">Planes</a></li>
<li><a href="/subir">Subir un fichero</a></li>
<li><a href="/alta">Alta de trabajador</a></li>
<li><a href="/descargas">Descargas</a></li>
</ul>`);
    case '/acceso':
      return certificateLogin(request, response);
    case '/login':
      return post ? passwordLogin(request, response) : page(response, 200, 'Iniciar sesión', `<h1>Iniciar sesión</h1>
<form method="post" action="/login">
<p><label>Usuario <input name="usuario" autocomplete="off"></label></p>
<p><label>Contraseña <input name="clave" type="password"></label></p>
<p><button type="submit">Entrar</button></p>
</form>`);
    case '/listado':
      return list(response, url.searchParams);
    case '/tarjetas':
      return page(response, 200, 'Planes', `<h1>Planes</h1>
<div id="planes">${CARDS.map((card) => `<div class="tarjeta"><h3>${escapeHtml(card.title)}</h3><span class="precio">${escapeHtml(card.price)}</span></div>`).join('\n')}</div>`);
    case '/subir':
      return post ? upload(request, response) : page(response, 200, 'Subir un fichero', `<h1>Subir un fichero</h1>
<form method="post" action="/subir" enctype="multipart/form-data">
<p><label>Fichero <input type="file" name="fichero"></label></p>
<p><button type="submit">Enviar</button></p>
</form>`);
    case '/alta':
      return post ? registration(request, response) : page(response, 200, 'Alta de trabajador', `<h1>Alta de trabajador</h1>
<form method="post" action="/alta">
<p><label>NIF <input name="nif" autocomplete="off"></label></p>
<p><label>Nombre <input name="nombre" autocomplete="off"></label></p>
<p><label for="contrato">Contrato</label> <select id="contrato" name="contrato"><option value="100">Indefinido</option><option value="401">Temporal</option></select></p>
<p><label><input type="checkbox" name="completa" checked> Jornada completa</label></p>
<p><button type="submit">Registrar</button></p>
</form>`);
    case '/descargas':
      return page(response, 200, 'Descargas', `<h1>Descargas</h1><p><a href="/${DOWNLOAD_NAME}">Descargar informe</a></p>`);
    case `/${DOWNLOAD_NAME}`:
      response.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${DOWNLOAD_NAME}"` }).end(DOWNLOAD_TEXT);
      return;
    default:
      return page(response, 404, 'No encontrado', '<p data-testid="mensaje-error">La página solicitada no existe.</p>');
  }
}

function certificateLogin(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerCertificate !== 'function') {
    return page(response, 403, 'Acceso denegado', '<h1>Acceso denegado</h1><p data-testid="mensaje-error">El acceso con certificado necesita HTTPS.</p>');
  }
  const peer: PeerCertificate = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) {
    return page(response, 403, 'Acceso denegado', '<h1>Acceso denegado</h1><p data-testid="mensaje-error">No se ha presentado ningún certificado.</p>');
  }
  if (!socket.authorized) {
    return page(response, 403, 'Acceso denegado', `<h1>Acceso denegado</h1><p data-testid="mensaje-error">El certificado no es válido (${escapeHtml(String(socket.authorizationError ?? ''))}).</p>`);
  }
  const subject = peer.subject as unknown as Record<string, string | string[] | undefined>;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const nif = (first(subject.serialNumber) ?? '').replace(/^IDCES-/i, '');
  page(response, 200, 'Área personal', `<h1 data-testid="bienvenida">Bienvenido/a, ${escapeHtml(first(subject.CN) ?? nif)}</h1>
<p>NIF: <span data-testid="nif-titular">${escapeHtml(nif)}</span></p>
<p><a href="/listado">Listado de empresas</a></p>`);
}

async function passwordLogin(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await bodyText(request));
  if (form.get('usuario') === MACRO_SITE_USER && form.get('clave') === MACRO_SITE_PASSWORD) {
    return page(response, 200, 'Área personal', `<h1 data-testid="bienvenida">Hola, ${MACRO_SITE_USER}</h1><p><a href="/listado">Listado de empresas</a></p>`);
  }
  page(response, 401, 'Iniciar sesión', '<h1>Iniciar sesión</h1><p data-testid="mensaje-error">Usuario o contraseña incorrectos</p><p><a href="/login">Volver</a></p>');
}

function list(response: ServerResponse, params: URLSearchParams): void {
  const pages = Math.ceil(LIST_ROWS / PAGE_SIZE);
  const current = Math.min(pages, Math.max(1, Number.parseInt(params.get('pagina') ?? '1', 10) || 1));
  const rows: string[] = [];
  for (let index = (current - 1) * PAGE_SIZE; index < Math.min(LIST_ROWS, current * PAGE_SIZE); index += 1) {
    rows.push(`<tr>${listRow(index).map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`);
  }
  const next = current < pages ? `<a href="/listado?pagina=${current + 1}">Siguiente</a>` : '';
  page(response, 200, 'Listado de empresas', `<h1>Listado de empresas</h1>
<table id="empresas" aria-label="Empresas">
<thead><tr>${LIST_HEADER.map((cell) => `<th>${cell}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
<p>Página ${current} de ${pages}</p>
<nav>${next}</nav>`);
}

async function upload(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await bodyBytes(request);
  const form = await new Request('http://sitio.invalid/subir', { method: 'POST', headers: { 'content-type': request.headers['content-type'] ?? '' }, body: new Uint8Array(body) }).formData();
  const file = form.get('fichero');
  if (!(file instanceof File) || file.name === '') {
    return page(response, 400, 'Subir un fichero', '<p data-testid="mensaje-error">No se ha elegido ningún fichero.</p>');
  }
  page(response, 200, 'Fichero recibido', `<h1>Fichero recibido</h1>
<p>Nombre: <span data-testid="nombre-fichero">${escapeHtml(file.name)}</span></p>
<p>Tamaño: <span data-testid="tamano-fichero">${file.size}</span> bytes</p>`);
}

async function registration(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await bodyText(request));
  const nif = (form.get('nif') ?? '').trim().toUpperCase();
  const name = (form.get('nombre') ?? '').trim();
  if (!validNif(nif)) {
    return page(response, 200, 'Alta de trabajador', `<h1>Alta de trabajador</h1><p data-testid="mensaje-error">El NIF ${escapeHtml(nif)} no es válido</p><p><a href="/alta">Volver</a></p>`);
  }
  // The number comes from the NIF, so every replay of a loop gets the same figures.
  const number = nif.replace(/\D/g, '');
  page(response, 200, 'Alta registrada', `<h1>Alta registrada</h1>
<p data-testid="alta-ok">Alta registrada nº <span data-testid="numero-alta">${number}</span></p>
<p>Trabajador: ${escapeHtml(name)}</p>
<p>Contrato: <span data-testid="contrato">${escapeHtml(form.get('contrato') ?? '')}</span> · Jornada: <span data-testid="jornada">${form.get('completa') === null ? 'parcial' : 'completa'}</span></p>
<p><a href="/alta">Nueva alta</a></p>`);
}

async function bodyBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function bodyText(request: IncomingMessage): Promise<string> {
  return (await bodyBytes(request)).toString('utf8');
}

function page(response: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;margin:2rem} .tarjeta{border:1px solid #ccc;padding:.5rem;margin:.5rem 0}</style></head>
<body>
${title === HOME_TITLE ? '' : '<header><a href="/">Inicio</a></header>\n'}${body}
</body></html>`;
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
