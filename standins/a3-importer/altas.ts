/**
 * The A3 importer stand-in's '202 – MA – Alta sucesiva' rules (research external-systems §4): the desktop
 * drops one workbook of altas (main/a3/altas-import.ts, columns of shared/a3/altas-sheet.ts) and gets one
 * answer row per alta. a3 makes 'código de convenio' and 'CNO' mandatory for an MA, and refuses an
 * invalid NAF or NIF/NIE; the rest are taken (the worker is then on the company's staff in A3).
 */
import * as XLSX from 'xlsx';
import { ALTAS_COLUMNS, ALTAS_HEADERS, ALTAS_SHEET, type AltasColumn } from '#shared/a3/altas-sheet.ts';
import { isValidNafControl, isValidNie, isValidNif } from '#shared/validation/identifiers.ts';
import type { A3AnswerRow } from '../../main/a3/it-rows.ts';

export type A3AltaSheetRow = Record<AltasColumn, string>;

/** An alta A3 took. */
export interface A3Alta {
  ccc: string;
  nif: string;
  naf: string;
  start: string;
}

/** The rows of an MA workbook by A3AltaRow field; a missing column reads as ''. Throws when it is not one. */
export function readAltasWorkbook(bytes: Uint8Array): A3AltaSheetRow[] {
  const book = XLSX.read(bytes, { type: 'buffer', cellDates: false });
  const sheet = book.Sheets[ALTAS_SHEET];
  if (!sheet) throw new Error(`El libro no tiene la hoja «${ALTAS_SHEET}».`);
  const rows = XLSX.utils.sheet_to_json<Record<string, string>>(sheet, { raw: false, defval: '' });
  return rows.map((row) => Object.fromEntries(ALTAS_COLUMNS.map((column) => [column, String(row[ALTAS_HEADERS[column]] ?? '').trim()])) as A3AltaSheetRow);
}

/** A3's answer to one alta row; an accepted one is added to `altas`. */
export function importAltaRow(row: A3AltaSheetRow, altas: A3Alta[]): A3AnswerRow {
  const reference = row.submissionId;
  const refuse = (message: string): A3AnswerRow => ({ reference, accepted: false, message });
  const nif = row.nif.toUpperCase();
  if (!nif) return refuse('Falta el NIF del trabajador.');
  if (!isValidNif(nif) && !isValidNie(nif)) return refuse(`El NIF/NIE «${nif}» no es válido.`);
  if (!row.naf) return refuse('Falta el número de afiliación (NAF) del trabajador.');
  if (!isValidNafControl(row.naf)) return refuse(`El número de afiliación (NAF) «${row.naf}» no es válido.`);
  if (!row.convenio) return refuse('Falta el código de convenio: es obligatorio para un alta (MA).');
  if (!row.ocupacion) return refuse('Falta la ocupación (CNO): es obligatoria para un alta (MA).');
  const ccc = row.ccc.replace(/\D/g, '');
  if (altas.some((alta) => alta.ccc === ccc && alta.nif === nif && alta.start === row.fechaAlta)) {
    return { reference, accepted: true, message: 'El alta ya estaba registrada.' };
  }
  altas.push({ ccc, nif, naf: row.naf, start: row.fechaAlta });
  return { reference, accepted: true, message: 'Alta registrada.' };
}
