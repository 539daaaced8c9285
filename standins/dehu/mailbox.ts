import { createHash, randomBytes } from 'node:crypto';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { writeTextPdf } from '../portal/pdf.ts';

/**
 * The stand-in's DEHÚ mailboxes: envíos pending per titular NIF, and the realizadas they become
 * (ACEPTADA by PeticionAcceso, EXPIRADA 10 days after puesta a disposición for a notificación).
 */

export interface StandinOrganismo {
  codigo: string;
  nombre: string;
}

export interface StandinEnvio {
  identificador: string;
  codigoOrigen: number;
  titular: { nif: string; nombre: string };
  concepto: string;
  descripcion?: string | null;
  organismoEmisor: StandinOrganismo;
  organismoEmisorRaiz?: StandinOrganismo | null;
  fechaPuestaDisposicion: Date;
  /** 1 comunicación, 2 notificación. */
  tipoEnvio: 1 | 2;
  /** 1 titular, 2 destinatario, 3 apoderado. */
  vinculo: number;
  metadatosPublicos?: string | null;
  /** The notice's PDF; one is generated when left out. */
  pdf?: Buffer;
  anexos?: { nombre: string; bytes: Buffer }[];
}

export type RealizadaState = 'ACEPTADA' | 'RECHAZADA' | 'EXPIRADA' | 'REALIZADA_TEU' | 'LEIDA';

export interface StandinRealizada {
  envio: StandinEnvio;
  estado: RealizadaState;
  fechaEvento: Date;
  csvResguardo: string | null;
  /** base64 referencia of the acuse PDF. */
  referenciaPdfAcuse: string | null;
  receptor: { nombre: string; nif: string } | null;
  acuse: Buffer | null;
}

const EXPIRY_MS = 10 * 86_400_000;

export function noticePdf(envio: StandinEnvio): Buffer {
  return (
    envio.pdf ??
    writeTextPdf(envio.concepto, [
      `Organismo emisor: ${envio.organismoEmisor.nombre}`,
      `Titular: ${envio.titular.nombre} (${envio.titular.nif})`,
      `Identificador: ${envio.identificador}`,
      `Puesta a disposicion: ${formatMadridDateTime(envio.fechaPuestaDisposicion)}`,
    ])
  );
}

export function annexReference(envio: StandinEnvio, index: number): string {
  return Buffer.from(`anexo:${envio.identificador}:${index}`).toString('base64');
}

export class Mailboxes {
  private readonly pending: StandinEnvio[] = [];
  private readonly done: StandinRealizada[] = [];

  constructor(envios: readonly StandinEnvio[]) {
    this.add(...envios);
  }

  add(...envios: StandinEnvio[]): void {
    this.pending.push(...envios);
  }

  /** Notificaciones not opened within 10 days are delivered by law: EXPIRADA (comunicaciones have no deadline). */
  expire(now: Date): void {
    for (let index = this.pending.length - 1; index >= 0; index--) {
      const envio = this.pending[index]!;
      const expiresAt = envio.fechaPuestaDisposicion.getTime() + EXPIRY_MS;
      if (envio.tipoEnvio === 2 && expiresAt <= now.getTime()) {
        this.pending.splice(index, 1);
        this.done.push({ envio, estado: 'EXPIRADA', fechaEvento: new Date(expiresAt), csvResguardo: null, referenciaPdfAcuse: null, receptor: null, acuse: null });
      }
    }
  }

  pendingOf(nif: string, from: Date | null, to: Date | null): StandinEnvio[] {
    return this.pending
      .filter((envio) => envio.titular.nif === nif && within(envio.fechaPuestaDisposicion, from, to))
      .sort((a, b) => a.fechaPuestaDisposicion.getTime() - b.fechaPuestaDisposicion.getTime() || a.identificador.localeCompare(b.identificador));
  }

  realizadasOf(nif: string, from: Date | null = null, to: Date | null = null): StandinRealizada[] {
    return this.done
      .filter((realizada) => realizada.envio.titular.nif === nif && within(realizada.envio.fechaPuestaDisposicion, from, to))
      .sort((a, b) => a.envio.fechaPuestaDisposicion.getTime() - b.envio.fechaPuestaDisposicion.getTime());
  }

  findPending(nif: string, identificador: string, codigoOrigen: number): StandinEnvio | undefined {
    return this.pending.find((envio) => envio.titular.nif === nif && envio.identificador === identificador && envio.codigoOrigen === codigoOrigen);
  }

  findRealizada(nif: string, identificador: string, codigoOrigen: number): StandinRealizada | undefined {
    return this.done.find((done) => done.envio.titular.nif === nif && done.envio.identificador === identificador && done.envio.codigoOrigen === codigoOrigen);
  }

  /** PeticionAcceso with evento 1: the comparecencia; the envío moves to realizadas as ACEPTADA with its acuse. */
  accept(envio: StandinEnvio, receptor: { nombre: string; nif: string }, now: Date): StandinRealizada {
    this.pending.splice(this.pending.indexOf(envio), 1);
    const csvResguardo = `CSV${randomBytes(8).toString('hex').toUpperCase()}`;
    const acuse = writeTextPdf('Acuse de recibo de notificacion electronica', [
      `Identificador: ${envio.identificador}`,
      `Concepto: ${envio.concepto}`,
      `Receptor: ${receptor.nombre} (${receptor.nif})`,
      `Fecha de acceso: ${formatMadridDateTime(now)}`,
      `CSV: ${csvResguardo}`,
    ]);
    const realizada: StandinRealizada = {
      envio,
      estado: 'ACEPTADA',
      fechaEvento: now,
      csvResguardo,
      referenciaPdfAcuse: Buffer.from(`acuse:${envio.identificador}`).toString('base64'),
      receptor,
      acuse,
    };
    this.done.push(realizada);
    return realizada;
  }
}

function within(date: Date, from: Date | null, to: Date | null): boolean {
  return (from === null || date.getTime() >= from.getTime()) && (to === null || date.getTime() <= to.getTime());
}

export function sha256Base64(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64');
}
