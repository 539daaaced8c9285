import { A3_END_OF_LEAVE } from '#shared/a3/incident.ts';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { lookup, TABLE_NOT_FOUND } from '#shared/fie/tables.ts';

/**
 * The rows of the A3 IT import workbook and of the importer's answer; workbook.ts reads and writes them
 * (with the spreadsheet library), loaded only when an import is written, so the desktop starts without it.
 *
 * The A3 IT import workbook (external-systems §4: a3innuva Nómina "Nueva IT" fields, informed en masa
 * through an Excel): one IT per row with company, worker, contingencia, fecha inicio and fin, and tipo
 * de prestación. The official template's headers were not found, so the columns carry the screen's
 * names; `Referencia` is the FIE entry, so each answer row comes back to its entry.
 */
export const A3_IT_SHEET = 'IT';
export const A3_IT_COLUMNS = [
  'Referencia',
  'Empresa',
  'CCC',
  'NIF trabajador',
  'Contingencia',
  'Fecha inicio',
  'Fecha fin',
  'Tipo de prestación',
  'Incidencia',
  'Días acumulados',
  'Anulada',
] as const;
export type A3ItColumn = (typeof A3_IT_COLUMNS)[number];
export type A3ItRow = Record<A3ItColumn, string>;

/** a3's three benefit types for an IT (Kombo's benefit_type_id: delegated, direct, no right). */
export const A3_BENEFIT_TYPES = ['Pago delegado', 'Pago directo', 'Sin derecho'] as const;

/**
 * The benefit type from the record's incident code: 46 and 48 are the FIE's payment modes 2 and 4
 * (shared/a3/incident.ts); every other IT is paid by the company in pago delegado. [GUESS: the FIE
 * layout names the modes without their meaning; to check with the official design.]
 */
export function benefitTypeOf(incidencia: number | null): (typeof A3_BENEFIT_TYPES)[number] {
  if (incidencia === 46) return 'Pago directo';
  if (incidencia === 48) return 'Sin derecho';
  return 'Pago delegado';
}

/** One row of the import: a baja opens an IT on its date; an alta (incident 7) closes it on its date. */
export function itRowOf(record: A3SyncRecordWithEntry): A3ItRow {
  const closing = record.incidencia === A3_END_OF_LEAVE;
  const contingency = record.contingencia === null ? TABLE_NOT_FOUND : lookup('contingencies', String(record.contingencia));
  return {
    Referencia: record.entryId,
    Empresa: record.nombreEmpresa ?? '',
    CCC: record.formatedccc ?? record.ccc ?? '',
    'NIF trabajador': record.dniEmpleado ?? '',
    Contingencia: contingency === TABLE_NOT_FOUND ? '' : contingency,
    // A short alta also carries the leave A3 may never have seen: the row opens and closes it.
    'Fecha inicio': closing ? (record.fechaBajaBajaDuracion ?? '') : (record.fechaFormateada ?? ''),
    'Fecha fin': closing ? (record.fechaFormateada ?? '') : '',
    'Tipo de prestación': benefitTypeOf(closing ? record.incidenciaBajaBajaDuracion : record.incidencia),
    Incidencia: record.incidencia === null ? '' : String(record.incidencia),
    'Días acumulados': record.diasAcumulados === null ? '' : String(record.diasAcumulados),
    Anulada: record.canceled ? 'Sí' : 'No',
  };
}

/** The importer's answer: one row per import row. */
export const A3_ANSWER_SHEET = 'Resultado';
export const A3_ANSWER_COLUMNS = ['Referencia', 'Estado', 'Mensaje'] as const;
export const A3_ACCEPTED = 'Importado';
export const A3_REFUSED = 'Rechazado';
export interface A3AnswerRow {
  reference: string;
  accepted: boolean;
  message: string;
}

