/**
 * Test-only stand-in for DEHÚ's LEMA web services (external-systems §1): HTTPS on 127.0.0.1 that asks
 * every client for its certificate (mutual TLS against the given CAs) and serves SOAP 1.1 at
 *
 *   /ws/v2/lema         Localiza, PeticionAcceso, ConsultaAnexos, ConsultaAcusePdf   (binaries as SwA parts)
 *   /ws/v1/realizadas   LocalizaRealizadas, ConsultaRealizadas                        (MTOM/XOP)
 *
 * Every request must be signed with WS-Security by the TLS certificate (verifier.ts). The mailbox is the
 * certificate holder's NIF. The operation is the Body's element; SOAPAction may be bare or the full URL.
 * LEMA's quirks are reproduced: dates only as Madrid time with offset and no milliseconds (2001),
 * fechaHasta before today (4207), realizadas at most 30 days back (4224), a query limit (4225), and
 * certificates not authorised (4103).
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Element } from '@xmldom/xmldom';
import { describeCertificate } from '../../main/certificates/x509.ts';
import { REALIZADAS_MAX_DAYS_BACK } from '../../main/dehu/lema/dates.ts';
import { LEMA_OPERATIONS, operationNamespace, PAGE_OPTION, REALIZADAS_OPERATIONS, soapAction, type LemaOperation } from '../../main/dehu/lema/soap.ts';
import { startOfMadridDay } from '#shared/time/madrid.ts';
import { faultAnswer, xmlAnswer, responseXml, type Answer } from './answers.ts';
import { LemaRefusal, readRequestDate, type OperationContext } from './context.ts';
import { Mailboxes, type StandinEnvio, type StandinRealizada } from './mailbox.ts';
import { answerConsultaAcusePdf, answerConsultaAnexos, answerConsultaRealizadas, answerLocaliza, answerLocalizaRealizadas, answerPeticionAcceso } from './operations.ts';
import { verifySignedEnvelope } from './verifier.ts';

export type { StandinEnvio, StandinRealizada } from './mailbox.ts';

export interface StandinDehuOptions {
  /** PEM certificates of the CAs whose certificates may connect and sign. */
  caCertificates: string[];
  serverKey: string;
  serverCert: string;
  envios?: StandinEnvio[];
  /** LEMA's success code: the clients disagree ('000' or '200'). Default '000'. */
  successCode?: '000' | '200';
  /** Localiza's page size (default 100). */
  pageSize?: number;
  /** NIFs registered as Gran Destinatario; any other gets 4103. Everyone when left out. */
  authorizedNifs?: string[];
  /** Calls per certificate before 4225. Unlimited when left out. */
  queryLimit?: number;
  now?: () => Date;
  port?: number;
}

export interface StandinDehuRequest {
  operation: string;
  nif: string | null;
  /** codigoRespuesta, or the fault code. */
  code: string;
}

export interface StandinDehu {
  url: string;
  lemaUrl: string;
  realizadasUrl: string;
  add(...envios: StandinEnvio[]): void;
  requests: StandinDehuRequest[];
  realizadas(nif: string): StandinRealizada[];
  close(): Promise<void>;
}

const REQUEST_MAX_BYTES = 5 * 1024 * 1024;
const PATHS: Record<string, readonly LemaOperation[]> = { '/ws/v2/lema': LEMA_OPERATIONS, '/ws/v1/realizadas': REALIZADAS_OPERATIONS };

export async function startStandinDehu(options: StandinDehuOptions): Promise<StandinDehu> {
  const mailboxes = new Mailboxes(options.envios ?? []);
  const requests: StandinDehuRequest[] = [];
  const callsPerCertificate = new Map<string, number>();
  const now = options.now ?? (() => new Date());

  async function handle(request: IncomingMessage): Promise<{ answer: Answer; operation: string; nif: string | null; code: string }> {
    const path = new URL(request.url ?? '/', 'https://dehu.invalid').pathname;
    const allowed = PATHS[path];
    const refuse = (code: string, text: string, operation = '?', nif: string | null = null) => ({ answer: faultAnswer(code, text), operation, nif, code });
    if (allowed === undefined) return refuse('soapenv:Client', `No hay ningún servicio en ${path}.`);
    if (request.method !== 'POST') return refuse('soapenv:Client', 'Solo se admiten peticiones POST.');
    const xml = await readBody(request);
    if (xml === null) return refuse('soapenv:Client', 'La petición es demasiado grande.');

    const at = now();
    const verified = verifySignedEnvelope(xml, { caCertificates: options.caCertificates, now: at });
    if (!verified.ok) return refuse(verified.faultCode, verified.reason);
    const socket = request.socket as TLSSocket;
    const tlsCertificate = socket.getPeerCertificate();
    if (!socket.authorized || tlsCertificate.raw === undefined || !tlsCertificate.raw.equals(verified.certificateDer)) {
      return refuse('wsse:FailedAuthentication', 'El certificado de la firma no es el de la conexión.');
    }
    const nif = describeCertificate(verified.certificateDer, 'pkcs12', 'dehu').nifVat;

    const element = firstElement(verified.body);
    const operation = allowed.find((candidate) => candidate === element?.localName);
    if (element === undefined || operation === undefined) return refuse('soapenv:Client', `Operación no disponible en ${path}: ${element?.localName ?? 'ninguna'}.`, element?.localName ?? '?', nif);
    if (element.namespaceURI !== operationNamespace(operation)) return refuse('soapenv:Client', `El elemento ${operation} debe ir en el espacio de nombres ${operationNamespace(operation)}.`, operation, nif);
    const action = String(request.headers.soapaction ?? '').replace(/^"|"$/g, '');
    if (action !== '' && action !== operation && action !== soapAction(operation)) return refuse('soapenv:Client', `SOAPAction no coincide con la operación: ${action}.`, operation, nif);

    const answerCode = (code: string, text: string) => ({ answer: xmlAnswer(responseXml(operation, code, text)), operation, nif, code });
    if (nif === null || (options.authorizedNifs !== undefined && !options.authorizedNifs.includes(nif))) {
      return answerCode('4103', 'Error en el control de acceso, el certificado utilizado no está autorizado');
    }
    const calls = (callsPerCertificate.get(nif) ?? 0) + 1;
    callsPerCertificate.set(nif, calls);
    if (options.queryLimit !== undefined && calls > options.queryLimit) return answerCode('4225', 'Se ha alcanzado el límite de consultas permitido');

    mailboxes.expire(at);
    const fields = (parent: Element) => (name: string): string | null => {
      const found = childElements(parent).find((child) => child.localName === name && child.namespaceURI === element.namespaceURI);
      const text = found?.textContent?.trim();
      return text === undefined || text === '' ? null : text;
    };
    const context: OperationContext = {
      nif,
      mailboxes,
      now: at,
      ok: options.successCode ?? '000',
      pageSize: options.pageSize ?? 100,
      field: fields(element),
      nested: (parent, name) => {
        const found = childElements(element).find((child) => child.localName === parent);
        return found === undefined ? null : fields(found)(name);
      },
      options: () => {
        const values = new Map<string, string>();
        for (const container of childElements(element).filter((child) => (child.localName ?? '').startsWith('opciones'))) {
          for (const option of childElements(container)) values.set(option.getAttribute('tipo') ?? '', option.textContent?.trim() ?? '');
        }
        return values;
      },
    };
    try {
      checkDates(operation, context);
      const answer = run(operation, context);
      return { answer, operation, nif, code: context.ok };
    } catch (error) {
      if (error instanceof LemaRefusal) return answerCode(error.code, error.message);
      throw error;
    }
  }

  const server: Server = createServer(
    { key: options.serverKey, cert: options.serverCert, ca: options.caCertificates, requestCert: true, rejectUnauthorized: false },
    (request, response) => {
      handle(request)
        .then(({ answer, operation, nif, code }) => {
          requests.push({ operation, nif, code });
          response.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': answer.body.length });
          response.end(answer.body);
        })
        .catch((error: unknown) => {
          const answer = faultAnswer('soapenv:Server', `Error interno: ${error instanceof Error ? error.message : String(error)}`);
          requests.push({ operation: '?', nif: null, code: 'soapenv:Server' });
          response.writeHead(answer.status, { 'content-type': answer.contentType });
          response.end(answer.body);
        });
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
    lemaUrl: `${url}/ws/v2/lema`,
    realizadasUrl: `${url}/ws/v1/realizadas`,
    add: (...envios) => mailboxes.add(...envios),
    requests,
    realizadas: (nif) => {
      mailboxes.expire(now());
      return mailboxes.realizadasOf(nif);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function run(operation: LemaOperation, context: OperationContext): Answer {
  switch (operation) {
    case 'Localiza':
      return answerLocaliza(context, context.options().get(PAGE_OPTION));
    case 'PeticionAcceso':
      return answerPeticionAcceso(context);
    case 'ConsultaAnexos':
      return answerConsultaAnexos(context);
    case 'ConsultaAcusePdf':
      return answerConsultaAcusePdf(context);
    case 'LocalizaRealizadas':
      return answerLocalizaRealizadas(context);
    case 'ConsultaRealizadas':
      return answerConsultaRealizadas(context);
  }
}

function checkDates(operation: LemaOperation, context: OperationContext): void {
  if (operation !== 'Localiza' && operation !== 'LocalizaRealizadas') return;
  const fechaDesde = readRequestDate(context.field('fechaDesde'));
  const fechaHasta = readRequestDate(context.field('fechaHasta'));
  if (fechaHasta !== null && fechaHasta.getTime() >= startOfMadridDay(context.now).getTime()) {
    throw new LemaRefusal('4207', `La fecha fechaHasta ${context.field('fechaHasta')} se encuentra fuera del margen permitido`);
  }
  if (operation === 'LocalizaRealizadas' && (fechaDesde === null || fechaDesde.getTime() < context.now.getTime() - REALIZADAS_MAX_DAYS_BACK * 86_400_000)) {
    throw new LemaRefusal('4224', 'La fecha desde no puede ser anterior a 30 días');
  }
}

function childElements(parent: Element): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) if (node.nodeType === 1) found.push(node as Element);
  return found;
}
const firstElement = (parent: Element): Element | undefined => childElements(parent)[0];

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > REQUEST_MAX_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
