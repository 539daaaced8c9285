import { LEMA_REALIZADA_STATES, lemaEnvioSchema, lemaRealizadaSchema, type LemaEnvio, type LemaRealizada } from '#shared/api/notifications.ts';
import { LemaError } from '../types.ts';
import { readLemaDate } from './dates.ts';
import { childOf, textOf, type XmlObject } from './response.ts';

/** Localiza's and LocalizaRealizadas' `item`s as the contract's LemaEnvio / LemaRealizada, validated with its schemas. */

function organismo(element: XmlObject | undefined): { codigo: string; nombre: string } | null {
  if (element === undefined) return null;
  const codigo = textOf(element, 'codigoOrganismo');
  const nombre = textOf(element, 'nombreOrganismo');
  if (codigo === null && nombre === null) return null;
  return { codigo: codigo ?? '', nombre: nombre ?? codigo ?? '' };
}

const PROCEDURE_KEYS = ['codigoProcedimiento', 'codProcedimiento', 'codigo_procedimiento', 'procedimiento'];
const PROCEDURE_CODE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,59}$/;

/**
 * The procedure code, when metadatosPublicos (base64, contents undocumented) decodes to JSON, XML or
 * key=value text that names one; null otherwise, never a guess.
 */
export function procedureCodeFrom(metadatosPublicos: string | null): string | null {
  if (metadatosPublicos === null || !/^[A-Za-z0-9+/=\s]+$/.test(metadatosPublicos)) return null;
  const decoded = Buffer.from(metadatosPublicos, 'base64').toString('utf8');
  try {
    const parsed: unknown = JSON.parse(decoded);
    if (typeof parsed === 'object' && parsed !== null) {
      for (const key of PROCEDURE_KEYS) {
        const value = (parsed as Record<string, unknown>)[key];
        if (typeof value === 'string' && PROCEDURE_CODE.test(value.trim())) return value.trim();
      }
    }
    return null;
  } catch {
    // Not JSON: look for <codigoProcedimiento>X</…> or codigoProcedimiento=X.
  }
  for (const key of PROCEDURE_KEYS) {
    const match = new RegExp(`(?:<(?:\\w+:)?${key}>\\s*([^<\\s]+)\\s*<|\\b${key}\\s*[=:]\\s*"?([^"\\s;&,|]+))`, 'i').exec(decoded);
    const value = match?.[1] ?? match?.[2];
    if (value !== undefined && PROCEDURE_CODE.test(value)) return value;
  }
  return null;
}

function integer(value: string | null): number | null {
  return value !== null && /^-?\d+$/.test(value) ? Number(value) : null;
}

function unreadable(item: XmlObject): LemaError {
  return new LemaError(`DEHÚ ha enviado una notificación que no se puede leer (identificador ${textOf(item, 'identificador') ?? 'desconocido'}).`, null);
}

export function readEnvio(item: XmlObject): LemaEnvio {
  const emisor = organismo(childOf(item, 'organismoEmisor'));
  const titular = childOf(item, 'titular');
  const metadatosPublicos = textOf(item, 'metadatosPublicos');
  const candidate = {
    identificador: textOf(item, 'identificador'),
    codigoOrigen: integer(textOf(item, 'codigoOrigen')),
    concepto: textOf(item, 'concepto') ?? '',
    descripcion: textOf(item, 'descripcion'),
    organismoEmisor: emisor,
    organismoEmisorRaiz: organismo(childOf(item, 'organismoEmisorRaiz')),
    fechaPuestaDisposicion: readLemaDate(textOf(item, 'fechaPuestaDisposicion')),
    tipoEnvio: integer(textOf(item, 'tipoEnvio')),
    vinculo: integer(textOf(item, 'vinculo')),
    titular: { nombre: textOf(titular, 'nombreTitular') ?? '', nif: textOf(titular, 'nifTitular') ?? '' },
    metadatosPublicos,
    codigoProcedimiento: procedureCodeFrom(metadatosPublicos),
  };
  const parsed = lemaEnvioSchema.safeParse(candidate);
  if (!parsed.success) throw unreadable(item);
  return parsed.data;
}

export function readRealizada(item: XmlObject): LemaRealizada {
  const envio = readEnvio(item);
  const estado = textOf(item, 'estado');
  const receptor = childOf(item, 'receptor');
  const nifReceptor = textOf(receptor, 'nifReceptor');
  const parsed = lemaRealizadaSchema.safeParse({
    ...envio,
    estado: LEMA_REALIZADA_STATES.find((state) => state === estado) ?? null,
    receptor: nifReceptor === null ? null : { nombre: textOf(receptor, 'nombreReceptor') ?? '', nif: nifReceptor },
    csvResguardo: textOf(item, 'csvResguardo'),
  });
  if (!parsed.success) throw unreadable(item);
  return parsed.data;
}
