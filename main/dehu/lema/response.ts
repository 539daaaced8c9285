import { XMLParser } from 'fast-xml-parser';
import { LemaError, type LemaDocument } from '../types.ts';
import { readMultipartRelated } from './multipart.ts';
import type { HttpAnswer } from './transport.ts';

/**
 * Reading LEMA's answers: the SOAP Body's response element with namespace prefixes removed, every value
 * kept as text ('000' stays '000'), and the binaries it points at (SwA href="cid:…", MTOM xop:Include,
 * or base64 inline).
 */

/** A parsed XML element: text, or an object of children and '@_' attributes. */
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [key: string]: XmlValue;
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => name === 'item' || name === 'opcion' || name === 'anexo',
});

export interface LemaAnswer {
  /** The response element inside the Body (RespuestaLocaliza, …). */
  result: XmlObject;
  attachments: Map<string, { contentType: string; bytes: Buffer }>;
}

export function isObject(value: XmlValue | undefined): value is XmlObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a child element; null when missing or empty. */
export function textOf(parent: XmlValue | undefined, name: string): string | null {
  if (!isObject(parent)) return null;
  const value = parent[name];
  if (typeof value === 'string') return value === '' ? null : value;
  if (isObject(value) && typeof value['#text'] === 'string') return value['#text'] === '' ? null : value['#text'];
  return null;
}

export function childOf(parent: XmlValue | undefined, name: string): XmlObject | undefined {
  if (!isObject(parent)) return undefined;
  const value = parent[name];
  return isObject(value) ? value : undefined;
}

export function childrenOf(parent: XmlValue | undefined, name: string): XmlObject[] {
  if (!isObject(parent)) return [];
  const value = parent[name];
  if (Array.isArray(value)) return value.filter(isObject);
  return isObject(value) ? [value] : [];
}

/** The `<opcion tipo="…">` values of an options element. */
export function optionsOf(parent: XmlObject | undefined): Map<string, string> {
  const values = new Map<string, string>();
  for (const option of childrenOf(parent, 'opcion')) {
    const type = option['@_tipo'];
    const value = option['#text'];
    if (typeof type === 'string') values.set(type, typeof value === 'string' ? value : '');
  }
  return values;
}

/** Checks and opens an answer: a SOAP Fault or an unsuccessful codigoRespuesta is a LemaError. */
export function readLemaAnswer(http: HttpAnswer, successCodes: readonly string[]): LemaAnswer {
  let xml: Buffer;
  let attachments: LemaAnswer['attachments'] = new Map();
  try {
    const multipart = readMultipartRelated(http.contentType, http.body);
    xml = multipart?.root ?? http.body;
    if (multipart) attachments = multipart.parts;
  } catch {
    throw new LemaError(`DEHÚ ha enviado una respuesta que no se puede leer (HTTP ${http.status}).`, null);
  }
  let parsed: XmlObject;
  try {
    parsed = parser.parse(xml.toString('utf8'), true) as XmlObject;
  } catch {
    parsed = {};
  }
  const body = childOf(childOf(parsed, 'Envelope'), 'Body');
  if (body === undefined) {
    throw new LemaError(http.status === 200 ? 'DEHÚ ha enviado una respuesta que no se puede leer.' : `DEHÚ ha respondido con un error (HTTP ${http.status}).`, null);
  }
  const fault = childOf(body, 'Fault');
  if (fault !== undefined) {
    const faultString = textOf(fault, 'faultstring') ?? 'error desconocido';
    const faultCode = textOf(fault, 'faultcode');
    throw new LemaError(`DEHÚ ha rechazado la petición: ${faultString}${faultCode ? ` (${faultCode})` : ''}`, faultCode);
  }
  const result = Object.entries(body).find(([key, value]) => !key.startsWith('@_') && isObject(value))?.[1];
  if (!isObject(result)) throw new LemaError('DEHÚ ha enviado una respuesta vacía.', null);
  const code = textOf(result, 'codigoRespuesta');
  if (code === null || !successCodes.includes(code)) {
    const description = textOf(result, 'descripcionRespuesta') ?? 'respuesta sin descripción';
    throw new LemaError(`DEHÚ: ${description} (${code ?? 'sin código'})`, code);
  }
  return { result, attachments };
}

/** Where a contenido's bytes are: a cid: reference (SwA href or MTOM xop:Include) or base64 text. */
function contentBytes(content: XmlValue | undefined, attachments: LemaAnswer['attachments']): Buffer | null {
  if (typeof content === 'string') return content === '' ? null : Buffer.from(content.replace(/\s+/g, ''), 'base64');
  if (!isObject(content)) return null;
  const href = content['@_href'] ?? childOf(content, 'Include')?.['@_href'];
  if (typeof href === 'string') {
    const id = decodeURIComponent(href.replace(/^cid:/i, ''));
    const part = attachments.get(id);
    if (part === undefined) throw new LemaError(`DEHÚ no ha enviado el documento anunciado (${id}).`, null);
    return part.bytes;
  }
  const inline = content['#text'];
  return typeof inline === 'string' && inline !== '' ? Buffer.from(inline.replace(/\s+/g, ''), 'base64') : null;
}

/** A document element (documento, acusePdf, anexo): its name, type and bytes. */
export function readDocument(element: XmlObject | undefined, attachments: LemaAnswer['attachments'], names: { name: string; content: string; fallbackName: string }): LemaDocument {
  const bytes = element === undefined ? null : contentBytes(element[names.content], attachments);
  if (element === undefined || bytes === null) throw new LemaError('DEHÚ no ha enviado el documento.', null);
  return {
    name: textOf(element, names.name) ?? names.fallbackName,
    mimeType: textOf(element, 'mimeType') ?? 'application/pdf',
    bytes: new Uint8Array(bytes),
  };
}
