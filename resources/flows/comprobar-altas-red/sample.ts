import * as XLSX from 'xlsx';
import type { CalendarDate } from '#shared/validation/formats.ts';
import { sampleCcc, sampleNaf, sampleNif } from '../validar-identificadores/sample.ts';
import { writeWorkbook } from '../_lib/workbook.ts';

/**
 * An 'Altas' workbook of any size laid out as the flow's template (plantilla.xlsx), for the demo
 * account's history (server/db/demo-files.ts) and tests: one worker per row, starting within the next
 * weeks of `today`. About one row in eight has something Sistema RED would refuse (a wrong NIF letter
 * or NAF control, a start date already past, a part-time contract without its coefficient), so the
 * robot's result is not all 'OK'.
 */

const HEADERS = [
  'Tipo de documento', 'Documento', 'NAF', 'CCC', 'Nombre', 'Primer apellido', 'Segundo apellido', 'Sexo',
  'Fecha de nacimiento', 'Fecha de alta', 'Tipo de contrato', 'Grupo de cotización', 'Coeficiente de parcialidad',
];
const NAMES = [['María', 'M'], ['José', 'H'], ['Lucía', 'M'], ['Íñigo', 'H'], ['Carmen', 'M'], ['Jordi', 'H'], ['Nerea', 'M'], ['Álvaro', 'H']] as const;
const SURNAMES = ['García', 'Muñoz', 'Ibáñez', 'Azcárate', 'Martín', 'Pérez', 'Núñez', 'Sánchez'];
/** Full-time indefinido and temporal, then part-time ones (their coefficient in thousandths). */
const CONTRACTS = [100, 401, 189, 200, 502] as const;

function dateText({ year, month, day }: CalendarDate): string {
  return `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}`;
}

function plusDays(day: CalendarDate, days: number): CalendarDate {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Row `row` of the list (0-based), checked on `today`. */
function sampleAlta(row: number, today: CalendarDate): (string | number)[] {
  const [name, sex] = NAMES[row % NAMES.length] ?? NAMES[0];
  const contract = CONTRACTS[row % CONTRACTS.length] ?? 100;
  const partTime = contract === 200 || contract === 502;
  const late = row % 16 === 5;
  const start = plusDays(today, late ? -3 : 1 + (row % 20));
  const birth = { year: 1965 + (row % 38), month: 1 + (row % 12), day: 1 + (row % 28) };
  // Wrong values are the ones sample.ts of Validar identificadores plants (its rows 7, 3...), shifted onto this list's rows.
  const nif = sampleNif(row % 16 === 7 ? 7 : row * 20 + 1);
  const naf = sampleNaf(row % 16 === 11 ? 3 : row * 25 + 1);
  const coefficient = partTime && row % 16 !== 13 ? 500 : '';
  return [1, nif, naf, sampleCcc(row * 40 + 1), name, SURNAMES[row % SURNAMES.length] ?? '', SURNAMES[(row * 3 + 1) % SURNAMES.length] ?? '', sex, dateText(birth), dateText(start), contract, 1 + (row % 11), coefficient];
}

/** The .xlsx bytes of an 'Altas' sheet with `rows` workers to register from `today` on. */
export function sampleAltasWorkbook(rows: number, today: CalendarDate): Uint8Array {
  const workbook = XLSX.utils.book_new();
  const table = [HEADERS, ...Array.from({ length: rows }, (_, row) => sampleAlta(row, today))];
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(table), 'Altas');
  return writeWorkbook(workbook);
}
