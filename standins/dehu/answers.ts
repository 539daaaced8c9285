import { randomBytes } from 'node:crypto';
import { create } from 'xmlbuilder2';
import { formatLemaDate } from '../../main/dehu/lema/dates.ts';
import { NS } from '../../main/dehu/lema/wsse.ts';

/**
 * How the stand-in answers: SOAP 1.1 envelopes whose response element carries a default namespace
 * (…/respuestaLocaliza), plain or as multipart/related with the binaries as parts: SwA in LEMA
 * (contenido href="cid:…"), MTOM/XOP in Realizadas (xop:Include), as the research describes.
 */

const NAMESPACE_BASE = 'http://administracion.gob.es/punto-unico-notificaciones/';

/** A value tree for xmlbuilder2: '@x' attributes, '#' text, arrays repeat an element. */
export type Tree = { [name: string]: string | number | Tree | Tree[] | null | undefined };

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Attachment {
  id: string;
  contentType: string;
  bytes: Buffer;
}

function clean(tree: Tree): Tree {
  const result: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'number') result[key] = String(value);
    else if (Array.isArray(value)) result[key] = value.map(clean);
    else if (typeof value === 'object') result[key] = clean(value);
    else result[key] = value;
  }
  return result;
}

function envelope(content: Tree): string {
  return create({ version: '1.0', encoding: 'UTF-8' })
    .ele({ 'soapenv:Envelope': { '@xmlns:soapenv': NS.soap, '@xmlns:xop': NS.xop, 'soapenv:Body': clean(content) } })
    .end();
}

/** `<RespuestaX xmlns=".../respuestaX">` with codigoRespuesta and descripcionRespuesta first. */
export function responseXml(operation: string, code: string, description: string, fields: Tree = {}): string {
  const name = `Respuesta${operation}`;
  return envelope({ [name]: { '@xmlns': `${NAMESPACE_BASE}respuesta${operation}`, codigoRespuesta: code, descripcionRespuesta: description, ...fields } });
}

export function xmlAnswer(xml: string, status = 200): Answer {
  return { status, contentType: 'text/xml; charset=utf-8', body: Buffer.from(xml, 'utf8') };
}

export function faultAnswer(faultCode: string, faultString: string): Answer {
  const xml = envelope({
    'soapenv:Fault': { '@xmlns:wsse': NS.wsse, '@xmlns:wsu': NS.wsu, faultcode: faultCode, faultstring: faultString },
  });
  return xmlAnswer(xml, 500);
}

/** The answer as multipart/related: SwA (text/xml root) or MTOM (application/xop+xml root). */
export function multipartAnswer(kind: 'swa' | 'mtom', xml: string, attachments: Attachment[]): Answer {
  const boundary = `uuid:${randomBytes(12).toString('hex')}`;
  const rootId = 'root.message@dehu.redsara.es';
  const rootType = kind === 'swa' ? 'text/xml; charset=UTF-8' : 'application/xop+xml; charset=UTF-8; type="text/xml"';
  const chunks: Buffer[] = [];
  const part = (headers: string[], bytes: Buffer) => {
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'), bytes, Buffer.from('\r\n', 'latin1'));
  };
  part([`Content-Type: ${rootType}`, 'Content-Transfer-Encoding: 8bit', `Content-ID: <${rootId}>`], Buffer.from(xml, 'utf8'));
  for (const attachment of attachments) {
    part([`Content-Type: ${attachment.contentType}`, 'Content-Transfer-Encoding: binary', `Content-ID: <${attachment.id}>`], attachment.bytes);
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  const type = kind === 'swa' ? 'type="text/xml"' : 'type="application/xop+xml"; start-info="text/xml"';
  return { status: 200, contentType: `multipart/related; ${type}; boundary="${boundary}"; start="<${rootId}>"`, body: Buffer.concat(chunks) };
}

/** The contenido element pointing at a part: SwA href, or an MTOM xop:Include. */
export function contentReference(kind: 'swa' | 'mtom', id: string): Tree {
  return kind === 'swa' ? { '@href': `cid:${id}` } : { 'xop:Include': { '@href': `cid:${encodeURIComponent(id)}` } };
}

export const lemaDate = formatLemaDate;
