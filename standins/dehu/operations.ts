import type { Answer, Tree } from './answers.ts';
import { contentReference, lemaDate, multipartAnswer, responseXml, xmlAnswer } from './answers.ts';
import { LemaRefusal, readRequestDate, type OperationContext } from './context.ts';
import { annexReference, noticePdf, sha256Base64, type StandinEnvio, type StandinRealizada } from './mailbox.ts';

/** What each LEMA operation answers, from the caller's mailbox. */

function envioItem(envio: StandinEnvio): Tree {
  const organismo = (value: { codigo: string; nombre: string }) => ({ codigoOrganismo: value.codigo, nombreOrganismo: value.nombre });
  return {
    identificador: envio.identificador,
    codigoOrigen: envio.codigoOrigen,
    concepto: envio.concepto,
    descripcion: envio.descripcion ?? null,
    organismoEmisor: organismo(envio.organismoEmisor),
    organismoEmisorRaiz: envio.organismoEmisorRaiz ? organismo(envio.organismoEmisorRaiz) : null,
    fechaPuestaDisposicion: lemaDate(envio.fechaPuestaDisposicion),
    tipoEnvio: envio.tipoEnvio,
    vinculo: envio.vinculo,
    titular: { nombreTitular: envio.titular.nombre, nifTitular: envio.titular.nif },
    metadatosPublicos: envio.metadatosPublicos ?? null,
  };
}

function pageNumber(value: string | null | undefined): number {
  if (value === null || value === undefined) return 1;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new LemaRefusal('2001', 'SOAP-ERROR: Encoding: Violation of encoding rules');
  return Number(value);
}

export function answerLocaliza(context: OperationContext, page: string | undefined): Answer {
  const all = context.mailboxes.pendingOf(context.nif, readRequestDate(context.field('fechaDesde')), readRequestDate(context.field('fechaHasta')));
  const current = pageNumber(page);
  const slice = all.slice((current - 1) * context.pageSize, current * context.pageSize);
  const totalPages = Math.max(1, Math.ceil(all.length / context.pageSize));
  return xmlAnswer(
    responseXml('Localiza', context.ok, 'Operación realizada correctamente', {
      nifPeticion: context.nif,
      envios: slice.length === 0 ? {} : { item: slice.map(envioItem) },
      hayMasResultados: current * context.pageSize < all.length ? 'true' : 'false',
      opcionesRespuestaLocaliza: {
        opcion: [
          { '@tipo': 'dehu.paginador.totalResultados', '#': String(all.length) },
          { '@tipo': 'dehu.paginador.totalPag', '#': String(totalPages) },
          { '@tipo': 'dehu.paginador.paginaActual', '#': String(current) },
        ],
      },
    }),
  );
}

function required(context: OperationContext, name: string): string {
  const value = context.field(name);
  if (value === null) throw new LemaRefusal('2001', `SOAP-ERROR: Encoding: object has no '${name}' property`);
  return value;
}

function codigoOrigen(context: OperationContext): number {
  const value = required(context, 'codigoOrigen');
  if (!/^\d+$/.test(value)) throw new LemaRefusal('2001', 'SOAP-ERROR: Encoding: Violation of encoding rules');
  return Number(value);
}

const NOT_FOUND = () => new LemaRefusal('4201', 'El envío no existe o no está disponible para el certificado');

export function answerPeticionAcceso(context: OperationContext): Answer {
  const identificador = required(context, 'identificador');
  const origen = codigoOrigen(context);
  const nifReceptor = required(context, 'nifReceptor');
  const nombreReceptor = required(context, 'nombreReceptor');
  if (required(context, 'evento') !== '1') throw new LemaRefusal('4202', 'Evento no admitido');
  const concepto = required(context, 'concepto');
  const envio = context.mailboxes.findPending(context.nif, identificador, origen);
  if (envio === undefined) throw NOT_FOUND();
  if (envio.concepto.slice(0, 255) !== concepto) throw new LemaRefusal('4204', 'El concepto no coincide con el del envío');
  const realizada = context.mailboxes.accept(envio, { nombre: nombreReceptor, nif: nifReceptor }, context.now);
  const pdf = noticePdf(envio);
  const documentId = `documento-${envio.identificador}@dehu.redsara.es`;
  const xml = responseXml('PeticionAcceso', context.ok, 'Operación realizada correctamente', {
    identificador: envio.identificador,
    codigoOrigen: envio.codigoOrigen,
    fechaEvento: lemaDate(realizada.fechaEvento),
    documento: {
      nombre: `${envio.identificador}.pdf`,
      contenido: contentReference('swa', documentId),
      hashDocumento: { hash: sha256Base64(pdf), algoritmoHash: 'SHA-256' },
      mimeType: 'application/pdf',
      referenciaPdfAcuse: realizada.referenciaPdfAcuse,
      csvResguardo: realizada.csvResguardo,
    },
    anexos: (envio.anexos ?? []).length === 0 ? {} : { item: (envio.anexos ?? []).map((annex, index) => ({ nombre: annex.nombre, referenciaDocumento: annexReference(envio, index) })) },
  });
  return multipartAnswer('swa', xml, [{ id: documentId, contentType: 'application/pdf', bytes: pdf }]);
}

function acceptedRealizada(context: OperationContext): StandinRealizada {
  const identificador = required(context, 'identificador');
  const realizada = context.mailboxes.findRealizada(context.nif, identificador, codigoOrigen(context));
  if (realizada === undefined || realizada.estado !== 'ACEPTADA') throw NOT_FOUND();
  return realizada;
}

export function answerConsultaAnexos(context: OperationContext): Answer {
  const realizada = acceptedRealizada(context);
  const referencia = required(context, 'referencia');
  const index = (realizada.envio.anexos ?? []).findIndex((_, candidate) => annexReference(realizada.envio, candidate) === referencia);
  const annex = realizada.envio.anexos?.[index];
  if (annex === undefined) throw new LemaRefusal('4203', 'El anexo solicitado no existe');
  const id = `anexo-${index}-${realizada.envio.identificador}@dehu.redsara.es`;
  const xml = responseXml('ConsultaAnexos', context.ok, 'Operación realizada correctamente', {
    anexo: { nombre: annex.nombre, contenido: contentReference('swa', id), hashDocumento: { hash: sha256Base64(annex.bytes), algoritmoHash: 'SHA-256' }, mimeType: 'application/pdf' },
  });
  return multipartAnswer('swa', xml, [{ id, contentType: 'application/pdf', bytes: annex.bytes }]);
}

export function answerConsultaAcusePdf(context: OperationContext): Answer {
  const csv = context.nested('identificadorAcusePdf', 'csvResguardo');
  const referencia = context.nested('identificadorAcusePdf', 'referencia');
  const identificador = context.field('identificador');
  const realizada = context.mailboxes
    .realizadasOf(context.nif)
    .find((candidate) => (identificador === null || candidate.envio.identificador === identificador) && ((csv !== null && candidate.csvResguardo === csv) || (referencia !== null && candidate.referenciaPdfAcuse === referencia)));
  if (realizada?.acuse == null) throw new LemaRefusal('4205', 'No existe el acuse solicitado');
  const id = `acuse-${realizada.envio.identificador}@dehu.redsara.es`;
  const xml = responseXml('ConsultaAcusePdf', context.ok, 'Operación realizada correctamente', {
    acusePdf: { nombreAcuse: `acuse-${realizada.envio.identificador}.pdf`, contenido: contentReference('swa', id), mimeType: 'application/pdf' },
  });
  return multipartAnswer('swa', xml, [{ id, contentType: 'application/pdf', bytes: realizada.acuse }]);
}

export function answerLocalizaRealizadas(context: OperationContext): Answer {
  const all = context.mailboxes.realizadasOf(context.nif, readRequestDate(context.field('fechaDesde')), readRequestDate(context.field('fechaHasta')));
  const current = pageNumber(context.field('pagina'));
  const totalPages = Math.max(1, Math.ceil(all.length / context.pageSize));
  const slice = all.slice((current - 1) * context.pageSize, current * context.pageSize);
  const xml = responseXml('LocalizaRealizadas', context.ok, 'Operación realizada correctamente', {
    nifPeticion: context.nif,
    envios: slice.length === 0 ? {} : {
      item: slice.map((realizada) => ({
        ...envioItem(realizada.envio),
        estado: realizada.estado,
        receptor: realizada.receptor ? { nombreReceptor: realizada.receptor.nombre, nifReceptor: realizada.receptor.nif } : null,
        referenciaPdfAcuse: realizada.referenciaPdfAcuse,
        csvResguardo: realizada.csvResguardo,
      })),
    },
    totalPaginas: totalPages,
    paginaActual: current,
  });
  return multipartAnswer('mtom', xml, []);
}

export function answerConsultaRealizadas(context: OperationContext): Answer {
  const realizada = acceptedRealizada(context);
  const pdf = noticePdf(realizada.envio);
  const id = `documento-${realizada.envio.identificador}@dehu.redsara.es`;
  const xml = responseXml('ConsultaRealizadas', context.ok, 'Operación realizada correctamente', {
    documento: { nombre: `${realizada.envio.identificador}.pdf`, contenido: contentReference('mtom', id), mimeType: 'application/pdf', csvResguardo: realizada.csvResguardo },
  });
  return multipartAnswer('mtom', xml, [{ id, contentType: 'application/pdf', bytes: pdf }]);
}
