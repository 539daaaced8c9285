import { madridOffsetMinutes } from '#shared/time/madrid.ts';
import { LEMA_DATE_PATTERN } from '../../main/dehu/lema/dates.ts';
import type { Mailboxes } from './mailbox.ts';

/** What an operation of the stand-in gets: the caller's mailbox, the request's fields, LEMA's refusals. */

export interface OperationContext {
  nif: string;
  mailboxes: Mailboxes;
  now: Date;
  ok: string;
  pageSize: number;
  /** The request element's fields by local name (text). */
  field(name: string): string | null;
  /** A nested field (identificadorAcusePdf/csvResguardo). */
  nested(parent: string, name: string): string | null;
  options(): Map<string, string>;
}

/** LEMA's refusal: an answer with this codigoRespuesta. */
export class LemaRefusal extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** DEHÚ's PHP decoder: a dateTime only as yyyy-mm-ddTHH:mm:ss±HH:MM in Madrid time. */
export function readRequestDate(value: string | null): Date | null {
  if (value === null) return null;
  if (!LEMA_DATE_PATTERN.test(value)) throw new LemaRefusal('2001', 'SOAP-ERROR: Encoding: Violation of encoding rules');
  const date = new Date(value);
  const offset = value.slice(-6);
  const madrid = madridOffsetMinutes(date) === 60 ? '+01:00' : '+02:00';
  if (Number.isNaN(date.getTime()) || offset !== madrid) throw new LemaRefusal('4207', `La fecha ${value} se encuentra fuera del margen permitido`);
  return date;
}

