import type { LemaEnvio, LemaRealizada, Notification, NotificationState } from '#shared/api/notifications.ts';
import { CADUCIDAD_DAYS } from '#shared/api/notifications.ts';
import { foldText } from '#shared/fie/list-filter.ts';
import { fromMadridParts, toMadridParts } from '#shared/time/madrid.ts';
import type { DehuNotificationsTable } from '../../db/schema-notifications.ts';

/** What LEMA says of an envío, as columns (the rest of a row is the firm's: ids, certificate, who opened it). */
export type LemaColumns = Pick<
  DehuNotificationsTable,
  | 'identificador' | 'codigo_origen' | 'titular_name' | 'titular_nif' | 'organo_name' | 'organo_code' | 'organismo_raiz_name'
  | 'cod_procedimiento' | 'concepto' | 'descripcion' | 'tipo' | 'vinculo' | 'disposicion' | 'caducidad' | 'search_text'
>;

const VINCULOS = { 1: 'titular', 2: 'destinatario', 3: 'apoderado' } as const;

/** The instant as ISO UTC, or null when the text is not a date. */
export function isoOrNull(text: string): string | null {
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Art. 43.2 Ley 39/2015: CADUCIDAD_DAYS natural days after the puesta a disposición, on Madrid's calendar. */
export function caducidadOf(disposicion: Date): Date {
  const parts = toMadridParts(disposicion);
  return fromMadridParts({ ...parts, day: parts.day + CADUCIDAD_DAYS });
}

export function searchTextOf(envio: Pick<LemaEnvio, 'titular' | 'organismoEmisor' | 'codigoProcedimiento' | 'concepto'>): string {
  return foldText([envio.titular.nombre, envio.titular.nif, envio.organismoEmisor.nombre, envio.codigoProcedimiento ?? '', envio.concepto].join(' '));
}

/** The columns of an envío whose date is already checked (`disposicion`, ISO UTC). */
export function lemaColumns(envio: LemaEnvio, disposicion: string): LemaColumns {
  const tipo = envio.tipoEnvio === 1 ? 'comunicacion' : 'notificacion';
  return {
    identificador: envio.identificador,
    codigo_origen: envio.codigoOrigen,
    titular_name: envio.titular.nombre,
    titular_nif: envio.titular.nif,
    organo_name: envio.organismoEmisor.nombre,
    organo_code: envio.organismoEmisor.codigo,
    organismo_raiz_name: envio.organismoEmisorRaiz?.nombre ?? null,
    cod_procedimiento: envio.codigoProcedimiento,
    concepto: envio.concepto,
    descripcion: envio.descripcion,
    tipo,
    vinculo: VINCULOS[envio.vinculo as keyof typeof VINCULOS] ?? 'otro',
    disposicion,
    caducidad: tipo === 'notificacion' ? caducidadOf(new Date(disposicion)).toISOString() : null,
    search_text: searchTextOf(envio),
  };
}

export function realizadaState(estado: LemaRealizada['estado']): NotificationState {
  return estado.toLowerCase() as NotificationState;
}

/** A notification row joined with its machine, opener and document count (see notificationRows). */
export interface NotificationRow extends DehuNotificationsTable {
  machine_name: string | null;
  opener_name: string | null;
  opener_email: string | null;
  document_count: number | string;
}

export function toNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    identificador: row.identificador,
    titular: row.titular_name,
    titularNif: row.titular_nif,
    organoEmisor: row.organo_name,
    organismoRaiz: row.organismo_raiz_name,
    codProcedimiento: row.cod_procedimiento,
    concepto: row.concepto,
    descripcion: row.descripcion,
    tipo: row.tipo,
    vinculo: row.vinculo,
    disposicion: row.disposicion,
    caducidad: row.caducidad,
    estado: row.estado,
    certificate: {
      fingerprint: row.certificate_fingerprint,
      commonName: row.certificate_common_name,
      machine: row.machine_id !== null && row.machine_name !== null ? { _id: row.machine_id, name: row.machine_name } : null,
    },
    openedAt: row.opened_at,
    openedBy: row.opener_email !== null ? { name: row.opener_name ?? '', email: row.opener_email } : null,
    documentCount: Number(row.document_count),
    firstSeenAt: row.first_seen_at,
  };
}
