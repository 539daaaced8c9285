import type { LemaEnvio, LemaRealizada } from '#shared/api/notifications.ts';
import type { BridgeResult } from '#shared/bridge/contract.ts';

/**
 * DEHÚ through LEMA, the SOAP web services of the Gran Destinatario (external-systems §1): every
 * request signed with WS-Security by the certificate's own key, over mutual TLS with the same
 * certificate. The client (main/dehu/lema/) speaks the wire format; the desktop service
 * (main/dehu/desktop.ts) decides what to ask and reports it to our server.
 */

/** A failure LEMA answered (codigoRespuesta other than success, or a SOAP Fault), or the connection's. */
export class LemaError extends Error {
  constructor(
    message: string,
    /** LEMA's codigoRespuesta ('4103', '4207'…), the Fault's code ('wsse:FailedCheck'), or null for a network failure. */
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** A binary LEMA returned (SwA attachment, MTOM part or base64 inline). */
export interface LemaDocument {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

/** An annex PeticionAcceso announces: fetched one by one with ConsultaAnexos. */
export interface LemaAnnexRef {
  name: string;
  /** referenciaDocumento (base64Binary), as received. */
  referencia: string;
}

export interface LemaAccess {
  /** fechaEvento as ISO. */
  fechaEvento: string;
  documento: LemaDocument;
  anexos: LemaAnnexRef[];
  csvResguardo: string | null;
  /** referenciaPdfAcuse (base64), when given. */
  referenciaPdfAcuse: string | null;
}

export interface LemaPeriod {
  /** Sent in Europe/Madrid local time with offset and no milliseconds; fechaHasta at most yesterday 23:59:59. */
  fechaDesde: Date;
  fechaHasta: Date;
}

export interface LemaClient {
  /** Every pending envío of the certificate's holder in the period (all pages). */
  localiza(period: LemaPeriod, signal?: AbortSignal): Promise<LemaEnvio[]>;
  /** Opens one envío: comparecencia, with legal effect. */
  peticionAcceso(request: { identificador: string; codigoOrigen: number; concepto: string; nifReceptor: string; nombreReceptor: string }, signal?: AbortSignal): Promise<LemaAccess>;
  consultaAnexos(request: { identificador: string; codigoOrigen: number; nifReceptor: string; referencia: string }, signal?: AbortSignal): Promise<LemaDocument>;
  consultaAcusePdf(request: { identificador: string; codigoOrigen: number; nifReceptor: string; csvResguardo: string | null; referencia: string | null }, signal?: AbortSignal): Promise<LemaDocument>;
  /** Envíos already accepted, rejected, expired or read (fechaDesde at most 30 days back; all pages). */
  localizaRealizadas(period: LemaPeriod, signal?: AbortSignal): Promise<LemaRealizada[]>;
}

export interface LemaClientOptions {
  /** DEHU_LEMA_URL: https://host[:port]/ws/v2/lema */
  lemaUrl: string;
  /** DEHU_REALIZADAS_URL: https://host[:port]/ws/v1/realizadas */
  realizadasUrl: string;
  /** The certificate and its key in memory (CertificateSource.clientCertificate): signs every request and is the TLS client certificate. */
  pfx: Buffer;
  passphrase: string;
  /** Extra CAs to trust for the server (the stand-in's test CA); the system's otherwise. */
  ca?: string[];
  /** TLS server name when it differs from the URL's host (the stand-in's CN is 'localhost'). */
  servername?: string;
  /** codigoRespuesta values that mean success: the clients disagree ('000' or '200'), so both by default. */
  successCodes?: readonly string[];
  timeoutMs?: number;
  now?: () => Date;
}

export type UpdateResult = BridgeResult<'UpdateNotificationsList'>;
export type OpenResult = BridgeResult<'GetNotificationsFromDehu'>;

/** The DEHÚ work of this PC for the /notifications screen, the remote launch and the autopilot (main/dehu/desktop.ts). */
export interface DehuDesktop {
  /** The watched certificates on this PC (or those listed): Localiza + LocalizaRealizadas -> server, progress per certificate. */
  update(options?: { certificates?: readonly string[]; log?: (level: 'info' | 'warn' | 'error', text: string) => void; signal?: AbortSignal }): Promise<UpdateResult>;
  /** PeticionAcceso + ConsultaAnexos + ConsultaAcusePdf for one notification -> its documents on the server. */
  open(notificationId: string, signal?: AbortSignal): Promise<OpenResult>;
}
