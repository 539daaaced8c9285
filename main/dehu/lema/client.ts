import type { LemaEnvio, LemaRealizada } from '#shared/api/notifications.ts';
import { LemaError, type LemaAccess, type LemaAnnexRef, type LemaClient, type LemaClientOptions } from '../types.ts';
import { earliestRealizadasFechaDesde, formatLemaDate, latestFechaHasta } from './dates.ts';
import { readEnvio, readRealizada } from './envios.ts';
import { childOf, childrenOf, optionsOf, readDocument, readLemaAnswer, textOf, type LemaAnswer, type XmlObject } from './response.ts';
import { readSigningIdentity, signedEnvelope, type SigningIdentity } from './signer.ts';
import { PAGE_OPTION, soapAction, writeOperation, type Fields, type LemaOperation } from './soap.ts';
import { postSoap, type TransportOptions } from './transport.ts';

/**
 * The LEMA client (external-systems §1): every call a signed SOAP 1.1 envelope over mutual TLS with the
 * same certificate. Localiza and LocalizaRealizadas follow every page; dates go in Madrid time.
 */

export const DEFAULT_SUCCESS_CODES = ['000', '200'] as const;
/** A runaway paginator (hayMasResultados always true) stops here. */
const MAX_PAGES = 500;

export function createLemaClient(options: LemaClientOptions): LemaClient {
  const lemaUrl = httpsUrl(options.lemaUrl, 'DEHU_LEMA_URL');
  const realizadasUrl = httpsUrl(options.realizadasUrl, 'DEHU_REALIZADAS_URL');
  const successCodes = options.successCodes ?? DEFAULT_SUCCESS_CODES;
  const now = options.now ?? (() => new Date());
  const transport: TransportOptions = { pfx: options.pfx, passphrase: options.passphrase, ca: options.ca, servername: options.servername, timeoutMs: options.timeoutMs ?? 60_000 };
  let identity: Promise<SigningIdentity> | undefined;

  async function call(url: string, operation: LemaOperation, fields: Fields, signal?: AbortSignal, optionValues?: { element: string; values: Record<string, string> }): Promise<LemaAnswer> {
    identity ??= readSigningIdentity(options.pfx, options.passphrase);
    const envelope = signedEnvelope((body) => writeOperation(body, operation, fields, optionValues), await identity, now());
    return readLemaAnswer(await postSoap(url, envelope, soapAction(operation), transport, signal), successCodes);
  }

  return {
    async localiza(period, signal) {
      const fechaHasta = earlier(period.fechaHasta, latestFechaHasta(now()));
      if (period.fechaDesde.getTime() > fechaHasta.getTime()) return [];
      const envios: LemaEnvio[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { result } = await call(lemaUrl, 'Localiza', [['fechaDesde', formatLemaDate(period.fechaDesde)], ['fechaHasta', formatLemaDate(fechaHasta)]], signal, {
          element: 'opcionesLocaliza',
          values: { [PAGE_OPTION]: String(page) },
        });
        const items = childrenOf(childOf(result, 'envios'), 'item');
        envios.push(...items.map(readEnvio));
        if (textOf(result, 'hayMasResultados') !== 'true' || items.length === 0) break;
      }
      return envios;
    },

    async localizaRealizadas(period, signal) {
      const fechaDesde = later(period.fechaDesde, earliestRealizadasFechaDesde(now()));
      const fechaHasta = earlier(period.fechaHasta, latestFechaHasta(now()));
      if (fechaDesde.getTime() > fechaHasta.getTime()) return [];
      const realizadas: LemaRealizada[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { result } = await call(realizadasUrl, 'LocalizaRealizadas', [['fechaDesde', formatLemaDate(fechaDesde)], ['fechaHasta', formatLemaDate(fechaHasta)], ['pagina', page]], signal);
        realizadas.push(...childrenOf(childOf(result, 'envios'), 'item').map(readRealizada));
        const totalPages = Number(textOf(result, 'totalPaginas') ?? optionsOf(childOf(result, 'opcionesRespuestaLocalizaRealizadas')).get('dehu.paginador.totalPag') ?? '1');
        if (!Number.isFinite(totalPages) || page >= totalPages) break;
      }
      return realizadas;
    },

    async peticionAcceso(request, signal) {
      const { result, attachments } = await call(lemaUrl, 'PeticionAcceso', [
        ['identificador', request.identificador],
        ['codigoOrigen', request.codigoOrigen],
        ['nifReceptor', request.nifReceptor],
        ['nombreReceptor', request.nombreReceptor],
        ['evento', 1],
        ['concepto', request.concepto.slice(0, 255)],
      ], signal);
      const documentElement = childOf(result, 'documento');
      const fechaEvento = Date.parse(textOf(result, 'fechaEvento') ?? '');
      if (Number.isNaN(fechaEvento)) throw new LemaError('DEHÚ no ha indicado la fecha de la comparecencia.', null);
      const access: LemaAccess = {
        fechaEvento: new Date(fechaEvento).toISOString(),
        documento: readDocument(documentElement, attachments, { name: 'nombre', content: 'contenido', fallbackName: `${request.identificador}.pdf` }),
        anexos: annexReferences(childOf(result, 'anexos')),
        csvResguardo: textOf(documentElement, 'csvResguardo') ?? textOf(result, 'csvResguardo'),
        referenciaPdfAcuse: textOf(documentElement, 'referenciaPdfAcuse') ?? textOf(result, 'referenciaPdfAcuse'),
      };
      return access;
    },

    async consultaAnexos(request, signal) {
      const { result, attachments } = await call(lemaUrl, 'ConsultaAnexos', [
        ['nifReceptor', request.nifReceptor],
        ['identificador', request.identificador],
        ['codigoOrigen', request.codigoOrigen],
        ['referencia', request.referencia],
      ], signal);
      return readDocument(childrenOf(result, 'anexo')[0] ?? childOf(result, 'documento'), attachments, { name: 'nombre', content: 'contenido', fallbackName: 'anexo.pdf' });
    },

    async consultaAcusePdf(request, signal) {
      if (request.csvResguardo === null && request.referencia === null) throw new LemaError('Para pedir el acuse hace falta su CSV o su referencia.', null);
      const { result, attachments } = await call(lemaUrl, 'ConsultaAcusePdf', [
        ['nifReceptor', request.nifReceptor],
        ['identificador', request.identificador],
        ['codigoOrigen', request.codigoOrigen],
        ['identificadorAcusePdf', request.csvResguardo !== null ? [['csvResguardo', request.csvResguardo]] : [['referencia', request.referencia]]],
      ], signal);
      return readDocument(childOf(result, 'acusePdf'), attachments, { name: 'nombreAcuse', content: 'contenido', fallbackName: `acuse-${request.identificador}.pdf` });
    },
  };
}

function annexReferences(anexos: XmlObject | undefined): LemaAnnexRef[] {
  return [...childrenOf(anexos, 'item'), ...childrenOf(anexos, 'anexo')].flatMap((annex, index) => {
    const referencia = textOf(annex, 'referenciaDocumento') ?? textOf(annex, 'referencia');
    return referencia === null ? [] : [{ name: textOf(annex, 'nombre') ?? `anexo-${index + 1}.pdf`, referencia }];
  });
}

const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

function httpsUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LemaError(`La dirección de DEHÚ no es válida (${name}: «${value}»).`, null);
  }
  if (url.protocol !== 'https:') throw new LemaError(`La dirección de DEHÚ debe ser https:// (${name}: «${value}»).`, null);
  return url.toString();
}
