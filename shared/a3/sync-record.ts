import { formatDayMonthYear } from '../fie/dates.ts';
import type { FieEntryRead, FieFieldLookup } from '../fie/slot-entry.ts';
import { A3_END_OF_LEAVE, a3IncidentCode, leaveIncidentCode, type IncidentOptions } from './incident.ts';

/** What the A3 sync sends per FIE entry, with the spec's names (§3, A3 sync record). */
export interface A3SyncRecord {
  fieId: string | null;
  dniEmpleado: string | null;
  nombreEmpresa: string | null;
  /** dd/mm/yyyy: the alta date for incident 7, else the leave date. */
  fechaFormateada: string | null;
  incidencia: number | null;
  /** 1100 = S: the worker has the required contribution period. */
  carencia: boolean;
  contingencia: number | null;
  /** The 11 digits of the CCC (province + number + control digits). */
  ccc: string | null;
  /** 'PP/NNNNNNN/DD'. */
  formatedccc: string | null;
  diasAcumulados: number | null;
  /** For a short alta (2 days or fewer), the leave A3 may never have seen: its date and incident. */
  fechaBajaBajaDuracion: string | null;
  incidenciaBajaBajaDuracion: number | null;
  canceled: boolean;
  date: string | null;
  incidenceCode: number | null;
  workerDNI: string | null;
}

export interface A3SyncOptions extends IncidentOptions {
  /** The saved FIE document's id; null before it is saved. */
  fieId?: string | null;
}

function text(fields: FieFieldLookup, code: number): string | null {
  const value = fields[code]?.normalizedValue;
  return typeof value === 'string' && value !== '' ? value : null;
}

function formattedDate(fields: FieFieldLookup, code: number): string | null {
  const iso = text(fields, code);
  return iso === null ? null : formatDayMonthYear(iso);
}

const ELEVEN_DIGITS = /^\d{11}$/;

/** '28/1234567/89' for an 11-digit CCC; anything else is shown as it is. */
export function formatCcc(ccc: string): string {
  // A test and slices, not a match's groups: a record per parte is made, and a match array per CCC is garbage.
  return ELEVEN_DIGITS.test(ccc) ? `${ccc.slice(0, 2)}/${ccc.slice(2, 9)}/${ccc.slice(9)}` : ccc;
}

const NO_OPTIONS: A3SyncOptions = {};

/**
 * `entry`: a FieEntry, or the text reader's slot view of one (shared/fie/slot-entry.ts). The options go
 * on to the incident codes as they are (no rest copy of them: the robot makes a record per parte).
 */
export function toA3SyncRecord(entry: FieEntryRead, incidentOptions: A3SyncOptions = NO_OPTIONS): A3SyncRecord {
  const fieId = incidentOptions.fieId ?? null;
  const { fields } = entry;
  const incidencia = a3IncidentCode(entry, incidentOptions);
  const fechaFormateada = formattedDate(fields, incidencia === A3_END_OF_LEAVE ? 1150 : 1020);
  const contingency = Number(fields[1090]?.value);
  const accumulated = fields[1060]?.normalizedValue;
  const ccc = fields[310]?.value ?? null;
  const shortAlta = entry.isAlta && entry.shortDuration;
  return {
    fieId,
    dniEmpleado: entry.nif,
    nombreEmpresa: text(fields, 530),
    fechaFormateada,
    incidencia,
    carencia: fields[1100]?.value === 'S',
    contingencia: Number.isInteger(contingency) && contingency > 0 ? contingency : null,
    ccc,
    formatedccc: ccc === null ? null : formatCcc(ccc),
    diasAcumulados: typeof accumulated === 'number' ? accumulated : null,
    fechaBajaBajaDuracion: shortAlta ? formattedDate(fields, 1020) : null,
    incidenciaBajaBajaDuracion: shortAlta ? leaveIncidentCode(fields, incidentOptions) : null,
    canceled: entry.isCanceled,
    date: fechaFormateada,
    incidenceCode: incidencia,
    workerDNI: entry.nif,
  };
}
