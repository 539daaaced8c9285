import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

/**
 * The operations of LEMA v2 and Realizadas v1 (external-systems §1.2-1.3): the request element, its
 * namespace (a default namespace on the body element, as DEHÚ's PHP decoder wants) and its SOAPAction.
 * Fields are written in their xs:sequence order.
 */
export const LEMA_OPERATIONS = ['Localiza', 'PeticionAcceso', 'ConsultaAnexos', 'ConsultaAcusePdf'] as const;
export const REALIZADAS_OPERATIONS = ['LocalizaRealizadas', 'ConsultaRealizadas'] as const;
export type LemaOperation = (typeof LEMA_OPERATIONS)[number] | (typeof REALIZADAS_OPERATIONS)[number];

const NAMESPACE_BASE = 'http://administracion.gob.es/punto-unico-notificaciones/';
const SOAP_ACTION_BASE = 'https://administracionelectronica.gob.es/notifica/ws/lema/';

/** localiza, peticionAcceso, … */
export function operationNamespace(operation: LemaOperation): string {
  return `${NAMESPACE_BASE}${operation.charAt(0).toLowerCase()}${operation.slice(1)}`;
}
export function soapAction(operation: LemaOperation): string {
  return `${SOAP_ACTION_BASE}${operation}`;
}

/** Paging option keys (the research saw dehu.paginador.pagina in requests, dehu.paginador.totalPag in answers). */
export const PAGE_OPTION = 'dehu.paginador.pagina';

/** A field: null or undefined leaves the (optional) element out. */
export type FieldValue = string | number | null | undefined;
export type Fields = ReadonlyArray<readonly [name: string, value: FieldValue | Fields]>;

/**
 * Writes `<Operation xmlns="…">` with its fields, in order, all in the operation's namespace; the
 * options element (`<opcionesX><opcion tipo="…">value</opcion></opcionesX>`, the Notific@ v2 pattern) last.
 */
export function writeOperation(body: XMLBuilder, operation: LemaOperation, fields: Fields, options?: { element: string; values: Record<string, string> }): void {
  const namespace = operationNamespace(operation);
  const element = body.ele(namespace, operation);
  writeFields(element, namespace, fields);
  if (options !== undefined) {
    const optionsElement = element.ele(namespace, options.element);
    for (const [type, value] of Object.entries(options.values)) optionsElement.ele(namespace, 'opcion').att('tipo', type).txt(value);
  }
}

function writeFields(parent: XMLBuilder, namespace: string, fields: Fields): void {
  for (const [name, value] of fields) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' || typeof value === 'number') parent.ele(namespace, name).txt(String(value));
    else writeFields(parent.ele(namespace, name), namespace, value);
  }
}
