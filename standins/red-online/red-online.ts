/**
 * Test-only stand-in for Sistema RED Online's ATR01 (alta/baja de trabajadores), the Jacada transaction a
 * RED-authorised user fills with a client certificate (research external-systems §2.1, §2.2, §2.5). An
 * HTTPS server on 127.0.0.1 that asks for a client certificate (mutual TLS) and checks it against the
 * given CAs: a request without a trusted one gets a 403 page and nothing else.
 *
 *   GET  /Xhtml?JacadaApplicationName=SGIRED&TRANSACCION=ATR01&E=I&AP=AFIR   screen 1 (a new alta)
 *   POST the same address, form `jacadaform`, with the pressed button's name:
 *     Sub2207401004  screen 1 -> screen 2     Sub2207402001  screen 2 -> warnings or Confirmar
 *     Sub0600401054 / Sub0000201056  a warning page -> the next one      Sub2207403001  Confirmar -> #DIL answer
 * A fatal code shows the same screen again with the code in #DIL (the answer page after Confirmar).
 * Rules and codes: rules.ts. What it admitted stays in memory (registered()); a second alta of the same
 * NAF in the same CCC is refused, as are the NAFs of `alreadyInAlta` and NAF_ALWAYS_IN_ALTA.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { madridDayKey } from '#shared/time/madrid.ts';
import type { StandinPortalOptions } from '../portal/portal.ts';
import { ATR01_PATH, BUTTONS, answerPage, confirmPage, readScreen1, readScreen2, refusedPage, screen1Page, screen2Page, warningPage, type WarningButton } from './pages.ts';
import {
  FATAL, NAF_ALWAYS_IN_ALTA, SUCCESS_CODE, WARNING, checkScreen1, checkScreen2, dil, dilLine, fechaRealOf, isPartTimeContract, daysBetween, spanishDate,
  type DilMessage, type Screen1, type Screen2,
} from './rules.ts';

export interface StandinRedOnlineOptions extends StandinPortalOptions {
  /** NAFs (12 digits) already in alta in every CCC: their alta is refused with 3012. */
  alreadyInAlta?: string[];
  /**
   * Which CCCs (11 digits) each certificate holder (NIF) may file for. Unset: any holder, any CCC.
   * Set: a holder not listed, or a CCC not in its list, is refused with 0041.
   */
  authorisedCccs?: Record<string, string[]>;
  /** Older fechas reales are fatal (3250). Default 30 (our rule). */
  maxDaysInPast?: number;
  /** Further altas previas are fatal (3251). Default 60 (our rule). */
  maxDaysAhead?: number;
  /** The stand-in's clock (tests). */
  now?: () => Date;
}

/** An alta the stand-in admitted. */
export interface RegisteredAlta {
  naf: string;
  regimen: string;
  ccc: string;
  ipfType: string;
  ipfNumber: string;
  /** yyyy-mm-dd */
  fechaReal: string;
  grupoCotizacion: string;
  tipoContrato: string;
  coeficienteParcialidad: string;
  convenio: string;
  ocupacion: string;
  /** The NIF of the certificate that filed it. */
  holderNif: string;
  /** The #DIL line answered. */
  answer: string;
  resolution: string;
}

export interface StandinRedOnline {
  url: string;
  /** The address of ATR01 on this stand-in. */
  atr01Url: string;
  registered(): RegisteredAlta[];
  close(): Promise<void>;
}

type Step =
  | { at: 'screen1' }
  | { at: 'screen2'; screen1: Screen1 }
  | { at: 'warnings'; screen1: Screen1; screen2: Screen2; warnings: Array<{ message: DilMessage; button: WarningButton }> }
  | { at: 'confirm'; screen1: Screen1; screen2: Screen2 }
  | { at: 'done' };

interface Session {
  holderNif: string;
  fingerprint: string;
  step: Step;
}

const SESSION_COOKIE = 'JSESSIONID';
const MAX_FORM_BYTES = 64 * 1024;

const CERTIFICATE_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'El certificado ha caducado.',
  CERT_NOT_YET_VALID: 'El certificado todavía no es válido.',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'El certificado no ha sido emitido por una autoridad de certificación reconocida.',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'El certificado está autofirmado y no es de una autoridad de certificación reconocida.',
};

export async function startStandinRedOnline(options: StandinRedOnlineOptions): Promise<StandinRedOnline> {
  const sessions = new Map<string, Session>();
  const registered: RegisteredAlta[] = [];
  const alwaysInAlta = new Set([NAF_ALWAYS_IN_ALTA, ...(options.alreadyInAlta ?? [])]);
  const now = options.now ?? (() => new Date());
  const limits = () => ({ today: madridDayKey(now()), maxDaysInPast: options.maxDaysInPast ?? 30, maxDaysAhead: options.maxDaysAhead ?? 60 });

  const inAltaIn = (naf: string): string[] => registered.filter((alta) => alta.naf === naf).map((alta) => alta.ccc);
  const authorised = (holderNif: string, ccc: string): boolean => !options.authorisedCccs || (options.authorisedCccs[holderNif] ?? []).includes(ccc);

  /** Screen 1's answer: a fatal message, or null to go on to screen 2. */
  function afterScreen1(session: Session, screen: Screen1): DilMessage | null {
    const formatProblem = checkScreen1(screen);
    if (formatProblem) return formatProblem;
    const naf = screen.nafProvince + screen.nafNumber;
    const ccc = screen.cccProvince + screen.cccNumber;
    if (!authorised(session.holderNif, ccc)) return dil(FATAL.notAuthorised, 'EL USUARIO NO ESTA AUTORIZADO PARA ACTUAR EN ESTE CODIGO DE CUENTA DE COTIZACION');
    if (alwaysInAlta.has(naf) || inAltaIn(naf).includes(ccc)) return dil(FATAL.alreadyInAlta, 'EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CODIGO DE CUENTA DE COTIZACION');
    return null;
  }

  /** The warnings screen 2 leads to, in RED's order: other CCC, fuera de plazo, part time. */
  function warningsFor(screen1: Screen1, screen2: Screen2): Array<{ message: DilMessage; button: WarningButton }> {
    const warnings: Array<{ message: DilMessage; button: WarningButton }> = [];
    const naf = screen1.nafProvince + screen1.nafNumber;
    if (inAltaIn(naf).length > 0) warnings.push({ message: dil(WARNING.otherCcc, 'EL TRABAJADOR FIGURA EN ALTA EN OTRO CODIGO DE CUENTA DE COTIZACION (PLURIEMPLEO)'), button: BUTTONS.warning });
    const fechaReal = fechaRealOf(screen2)!;
    if (daysBetween(limits().today, fechaReal) < 0) warnings.push({ message: dil(WARNING.late, 'ALTA PRESENTADA FUERA DE PLAZO'), button: BUTTONS.warning });
    if (isPartTimeContract(screen2.tipoContrato)) warnings.push({ message: dil(WARNING.partTime, 'REVISE EL CONTENIDO DEL COEFICIENTE A TIEMPO PARCIAL'), button: BUTTONS.partTimeWarning });
    return warnings;
  }

  function confirm(session: Session, screen1: Screen1, screen2: Screen2): string {
    session.step = { at: 'done' };
    // Checked again: another session may have filed the same alta meanwhile.
    const again = afterScreen1(session, screen1);
    if (again) return answerPage(again, null);
    const naf = screen1.nafProvince + screen1.nafNumber;
    const ccc = screen1.cccProvince + screen1.cccNumber;
    const fechaReal = fechaRealOf(screen2)!;
    const answer = dil(SUCCESS_CODE, `ALTA ADMITIDA. NAF ${naf} CCC ${screen1.regimen} ${ccc} FECHA REAL ${spanishDate(fechaReal)}`);
    const resolution = [
      'RESOLUCION SOBRE RECONOCIMIENTO DE ALTA EN LA SEGURIDAD SOCIAL',
      `TRABAJADOR: NAF ${naf} IPF ${screen1.ipfType} ${screen1.ipfNumber}`,
      `EMPRESA: REGIMEN ${screen1.regimen} CCC ${ccc}`,
      `FECHA REAL DE ALTA: ${spanishDate(fechaReal)}  GRUPO DE COTIZACION: ${screen2.grupoCotizacion}  CONTRATO: ${screen2.tipoContrato}`,
      `FECHA DE PRESENTACION: ${spanishDate(limits().today)}`,
    ].join('\n');
    registered.push({
      naf, regimen: screen1.regimen, ccc, ipfType: screen1.ipfType, ipfNumber: screen1.ipfNumber, fechaReal,
      grupoCotizacion: screen2.grupoCotizacion, tipoContrato: screen2.tipoContrato, coeficienteParcialidad: screen2.coeficienteParcialidad,
      convenio: screen2.convenio, ocupacion: screen2.ocupacion, holderNif: session.holderNif, answer: dilLine(answer), resolution,
    });
    return answerPage(answer, resolution);
  }

  function nextAfterWarnings(session: Session, screen1: Screen1, screen2: Screen2, warnings: Array<{ message: DilMessage; button: WarningButton }>): string {
    const [warning, ...rest] = warnings;
    if (warning) {
      session.step = { at: 'warnings', screen1, screen2, warnings: rest };
      return warningPage(warning.message, warning.button);
    }
    session.step = { at: 'confirm', screen1, screen2 };
    return confirmPage([
      ['NAF', `${screen1.nafProvince} ${screen1.nafNumber}`],
      ['IPF', `${screen1.ipfType} ${screen1.ipfNumber}`],
      ['CCC', `${screen1.regimen} ${screen1.cccProvince} ${screen1.cccNumber}`],
      ['Fecha real', `${screen2.day}/${screen2.month}/${screen2.year}`],
      ['Grupo de cotización', screen2.grupoCotizacion],
      ['Tipo de contrato', screen2.tipoContrato],
      ['Coeficiente de parcialidad', screen2.coeficienteParcialidad],
    ]);
  }

  /** One POST of jacadaform: the pressed button must belong to the screen the session is on. */
  function post(session: Session, form: URLSearchParams): string {
    const step = session.step;
    const pressed = (button: string) => form.has(button);
    if (step.at === 'screen1' && pressed(BUTTONS.screen1)) {
      const screen = readScreen1(form);
      if ((form.get('cbo_ListaAltasBajas') ?? '0') !== '0') return screen1Page(screen, dil(FATAL.format, 'ESTE SERVICIO DE PRUEBAS SOLO ADMITE ALTAS'));
      const problem = afterScreen1(session, screen);
      if (problem) return screen1Page(screen, problem);
      session.step = { at: 'screen2', screen1: screen };
      return screen2Page({ situacion: '01' }, null);
    }
    if (step.at === 'screen2' && pressed(BUTTONS.screen2)) {
      const screen = readScreen2(form);
      const problem = checkScreen2(screen, limits());
      if (problem) return screen2Page(screen, problem);
      return nextAfterWarnings(session, step.screen1, screen, warningsFor(step.screen1, screen));
    }
    if (step.at === 'warnings' && (pressed(BUTTONS.warning) || pressed(BUTTONS.partTimeWarning))) {
      return nextAfterWarnings(session, step.screen1, step.screen2, step.warnings);
    }
    if (step.at === 'confirm' && pressed(BUTTONS.confirm)) return confirm(session, step.screen1, step.screen2);
    session.step = { at: 'done' };
    return answerPage(dil(FATAL.format, 'SECUENCIA DE PANTALLAS INCORRECTA. INICIE DE NUEVO LA TRANSACCION'), null);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'https://red.invalid');
    const certificate = checkCertificate(request.socket as TLSSocket);
    if (!certificate.ok) return send(response, 403, refusedPage(certificate.reason));
    const isAtr01 = url.pathname === '/Xhtml' && url.searchParams.get('JacadaApplicationName') === 'SGIRED' && url.searchParams.get('TRANSACCION') === 'ATR01';
    if (!isAtr01) return send(response, 404, answerPage(dil(FATAL.format, 'TRANSACCION NO DISPONIBLE EN ESTE ENTORNO DE PRUEBAS'), null));

    if (request.method === 'GET') {
      // Opening ATR01 starts a new alta, in a session of this certificate.
      const token = randomBytes(24).toString('base64url');
      sessions.set(token, { holderNif: certificate.nif, fingerprint: certificate.fingerprint, step: { at: 'screen1' } });
      response.setHeader('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax`);
      return send(response, 200, screen1Page({}, null));
    }
    if (request.method !== 'POST') return send(response, 405, answerPage(dil(FATAL.format, 'METODO NO PERMITIDO'), null));
    const session = sessions.get(readCookie(request, SESSION_COOKIE) ?? '');
    if (!session || session.fingerprint !== certificate.fingerprint) {
      return send(response, 200, answerPage(dil(FATAL.format, 'LA SESION HA CADUCADO. INICIE DE NUEVO LA TRANSACCION'), null));
    }
    const form = new URLSearchParams(await readBody(request));
    send(response, 200, post(session, form));
  }

  const server: Server = createServer(
    // Ask for a certificate but let the handshake finish, so the refusal can say why.
    { key: options.serverKey, cert: options.serverCert, ca: options.caCertificates, requestCert: true, rejectUnauthorized: false },
    (request, response) => {
      handle(request, response).catch((error: unknown) => send(response, 500, answerPage(dil('9999', `ERROR INTERNO: ${String(error)}`), null)));
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `https://127.0.0.1:${port}`;
  return {
    url,
    atr01Url: `${url}${ATR01_PATH}`,
    registered: () => registered.map((alta) => ({ ...alta })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type CertificateCheck = { ok: true; nif: string; fingerprint: string } | { ok: false; reason: string };

function checkCertificate(socket: TLSSocket): CertificateCheck {
  const peer: PeerCertificate = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) return { ok: false, reason: 'No se ha presentado ningún certificado.' };
  if (!socket.authorized) {
    const code = String(socket.authorizationError ?? '');
    return { ok: false, reason: CERTIFICATE_REASONS[code] ?? `El certificado no es válido (${code}).` };
  }
  const subject = peer.subject as unknown as Record<string, string | string[] | undefined>;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  // Persona física and representante carry IDCES-<NIF>; entity certificates VATES-<CIF>.
  const nif = first(subject.serialNumber)?.replace(/^IDCES-/i, '') ?? first(subject.organizationIdentifier ?? subject['2.5.4.97'])?.replace(/^VATES-/i, '');
  if (!nif) return { ok: false, reason: 'El certificado no contiene un NIF reconocible.' };
  return { ok: true, nif: nif.toUpperCase(), fingerprint: peer.fingerprint256 };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        reject(new Error('formulario demasiado grande'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function send(response: ServerResponse, status: number, html: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}
