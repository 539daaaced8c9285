import * as XLSX from 'xlsx';
import { parseCalendarDate, isValidName, type CalendarDate } from '#shared/validation/formats.ts';
import {
  DOCUMENT_TYPE_CODES, compactIdentifier, inferDocumentIdType, isValidCcc, isValidNafControl, isValidNie, isValidNif,
  isValidPassport, type DocumentTypeCode,
} from '#shared/validation/identifiers.ts';
import { zerosLostByExcel, zerosLostMessage } from '../_lib/identifiers.ts';
import { headerKey } from '../_lib/text.ts';
import { cellText } from '../_lib/workbook.ts';

/**
 * What Sistema RED refuses in an alta, checked on one row of the advisor's list. The rules, from the
 * RED Online form (ATR01) and the AFI message layout (research notes, external-systems.md §2 and §6):
 * - IPF: type 1 = DNI/NIF, 2 = pasaporte, 6 = NIE, and the number must be of that type;
 * - NAF: 12 digits, PP + NNNNNNNN + DD, DD = (N < 10^7 ? N + PP·10^7 : PP‖N) mod 97;
 * - CCC: 11 digits, PP + NNNNNNN + DD, DD = first nine mod 97;
 * - AYN segment: apellido 1 (20 characters), apellido 2 (20), nombre (15);
 * - FAB segment: sexo (1 = H, 2 = M), fecha de nacimiento, fecha real de alta, grupo de cotización (T18,
 *   1 to 11), tipo de contrato (T19, 3 digits) and, for part-time contracts (2xx indefinido, 5xx
 *   temporal), coeficiente de tiempo parcial in thousandths (3 digits, 1-999);
 * - the alta is filed before work starts and no earlier than 60 calendar days before (RD 84/1996, art. 32);
 * - minimum working age 16 (Estatuto de los Trabajadores, art. 6).
 */

export const WORKER_FIELDS = [
  'tipoDocumento', 'documento', 'naf', 'ccc', 'nombre', 'primerApellido', 'segundoApellido', 'sexo',
  'fechaNacimiento', 'fechaAlta', 'tipoContrato', 'grupoCotizacion', 'coeficiente',
] as const;
export type WorkerField = (typeof WORKER_FIELDS)[number];

/** Columns the list must have; the others are checked when present. */
export const REQUIRED_FIELDS: readonly WorkerField[] = [
  'documento', 'naf', 'ccc', 'nombre', 'primerApellido', 'sexo', 'fechaNacimiento', 'fechaAlta', 'tipoContrato', 'grupoCotizacion',
];

export const MINIMUM_AGE = 16;
export const MAX_DAYS_IN_ADVANCE = 60;
const NAME_LENGTH: Partial<Record<WorkerField, number>> = { nombre: 15, primerApellido: 20, segundoApellido: 20 };

export interface Problem {
  field: WorkerField;
  message: string;
}

export interface RowCheck {
  /** The row's cells by field; a field whose column the sheet lacks is absent. */
  cells: Partial<Record<WorkerField, XLSX.CellObject | undefined>>;
  /** Columns the sheet has (a present column with an empty cell is not the same as no column). */
  columns: ReadonlySet<WorkerField>;
  /** The day of the check in Madrid: altas before it are late. */
  today: CalendarDate;
}

const TYPE_BY_TEXT: Readonly<Record<string, DocumentTypeCode>> = {
  '1': 1, dni: 1, nif: 1, 'dni nif': 1,
  '2': 2, pasaporte: 2, passport: 2,
  '6': 6, nie: 6,
};

/** The document type code a cell holds ('1', '01', 'DNI', 'N.I.E.', 'Pasaporte'), or null. */
export function documentTypeOf(text: string): DocumentTypeCode | null {
  const key = headerKey(text).replace(/^0+(?=\d)/, '');
  return TYPE_BY_TEXT[key] ?? null;
}

/** A date from a date cell (Excel serial day with a date format) or from 'dd/mm/yyyy' / ISO text. */
export function calendarDateOf(cell: XLSX.CellObject | undefined): CalendarDate | null {
  if (cell === undefined) return null;
  if (cell.t === 'n' && typeof cell.v === 'number' && XLSX.SSF.is_date(cell.z ?? '')) {
    const parts = XLSX.SSF.parse_date_code(cell.v);
    return parts ? { year: parts.y, month: parts.m, day: parts.d } : null;
  }
  if (cell.t === 'd' && cell.v instanceof Date) {
    return { year: cell.v.getUTCFullYear(), month: cell.v.getUTCMonth() + 1, day: cell.v.getUTCDate() };
  }
  const text = cellText(cell);
  return /^\d/.test(text) ? parseCalendarDate(text) : null;
}

function dayNumber({ year, month, day }: CalendarDate): number {
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

function formatDate({ year, month, day }: CalendarDate): string {
  return `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/${year}`;
}

/** Whole years from birth to a day (a birthday on that day counts). */
export function ageOn(birth: CalendarDate, day: CalendarDate): number {
  const hadBirthday = day.month > birth.month || (day.month === birth.month && day.day >= birth.day);
  return day.year - birth.year - (hadBirthday ? 0 : 1);
}

function checkDocument(check: RowCheck, text: string): string | null {
  if (text === '') return 'Falta el documento';
  const typeText = cellText(check.cells.tipoDocumento);
  const nif = isValidNif(text);
  const nie = isValidNie(text);
  const shape = inferDocumentIdType(text);
  if (!check.columns.has('tipoDocumento')) {
    if (nif || nie) return null;
    if (shape === 'DNI') return 'La letra del NIF no es correcta';
    if (shape === 'NIE') return 'La letra del NIE no es correcta';
    return 'No es un NIF ni un NIE válido; si es un pasaporte, añade la columna Tipo de documento con un 2';
  }
  if (typeText === '') return 'Falta el tipo de documento (1 DNI/NIF, 2 pasaporte, 6 NIE)';
  const type = documentTypeOf(typeText);
  if (type === null) return 'El tipo de documento debe ser 1 (DNI/NIF), 2 (pasaporte) o 6 (NIE)';
  if (type === DOCUMENT_TYPE_CODES.DNI) {
    if (nif) return null;
    if (nie) return 'El documento es un NIE: el tipo de documento debe ser 6';
    return shape === 'DNI' ? 'La letra del NIF no es correcta' : 'El documento no es un NIF (8 cifras y letra)';
  }
  if (type === DOCUMENT_TYPE_CODES.NIE) {
    if (nie) return null;
    if (nif) return 'El documento es un NIF: el tipo de documento debe ser 1';
    return shape === 'NIE' ? 'La letra del NIE no es correcta' : 'El documento no es un NIE (X, Y o Z, 7 cifras y letra)';
  }
  if (nif || nie) return `El documento es un ${nif ? 'NIF' : 'NIE'}: el tipo de documento debe ser ${nif ? 1 : 6}`;
  return isValidPassport(text) ? null : 'El pasaporte debe tener de 5 a 15 letras o cifras';
}

function checkDigitsIdentifier(cell: XLSX.CellObject | undefined, name: string, length: number, isValid: (text: string) => boolean): string | null {
  const text = cellText(cell);
  if (text === '') return `Falta el ${name}`;
  if (isValid(text)) return null;
  const padded = zerosLostByExcel(cell, length, isValid);
  if (padded !== null) return `${name}: ${zerosLostMessage(padded)}`;
  return /^\d+$/.test(compactIdentifier(text)) && compactIdentifier(text).length === length
    ? `Los dígitos de control del ${name} no cuadran`
    : `El ${name} debe tener ${length} cifras`;
}

function checkName(field: WorkerField, label: string, text: string, required: boolean): string | null {
  if (text === '') return required ? `Falta el ${label.toLowerCase()}` : null;
  if (!isValidName(text)) return `${label}: solo letras, espacios y guiones`;
  const limit = NAME_LENGTH[field];
  if (limit !== undefined && text.length > limit) return `${label}: más de ${limit} caracteres (Sistema RED admite ${limit})`;
  return null;
}

function checkSex(text: string): string | null {
  if (text === '') return 'Falta el sexo';
  return ['H', 'M', 'HOMBRE', 'MUJER'].includes(text.toUpperCase()) ? null : 'El sexo debe ser H o M';
}

function checkStartDate(check: RowCheck): { problem: string | null; date: CalendarDate | null } {
  if (cellText(check.cells.fechaAlta) === '') return { problem: 'Falta la fecha de alta', date: null };
  const date = calendarDateOf(check.cells.fechaAlta);
  if (date === null) return { problem: 'La fecha de alta no es una fecha válida', date: null };
  const ahead = dayNumber(date) - dayNumber(check.today);
  if (ahead < 0) return { problem: `La fecha de alta (${formatDate(date)}) ya ha pasado: el alta se presentaría fuera de plazo`, date };
  if (ahead > MAX_DAYS_IN_ADVANCE) {
    return { problem: `La fecha de alta (${formatDate(date)}) está a más de ${MAX_DAYS_IN_ADVANCE} días: Sistema RED aún no la admite`, date };
  }
  return { problem: null, date };
}

function checkBirthDate(check: RowCheck, start: CalendarDate | null): string | null {
  if (cellText(check.cells.fechaNacimiento) === '') return 'Falta la fecha de nacimiento';
  const birth = calendarDateOf(check.cells.fechaNacimiento);
  if (birth === null || birth.year < 1900) return 'La fecha de nacimiento no es una fecha válida';
  const on = start ?? check.today;
  if (dayNumber(birth) >= dayNumber(on)) return 'La fecha de nacimiento es posterior a la fecha de alta';
  const age = ageOn(birth, on);
  return age < MINIMUM_AGE ? `Tendría ${age} años en la fecha de alta: la edad mínima para trabajar es ${MINIMUM_AGE}` : null;
}

/** Contract codes of table T19 whose first digit is 2 (indefinido) or 5 (temporal) are part-time. */
export function isPartTimeContract(code: string): boolean {
  return /^[25]\d\d$/.test(code);
}

function checkContract(check: RowCheck): Problem[] {
  const code = cellText(check.cells.tipoContrato);
  if (code === '') return [{ field: 'tipoContrato', message: 'Falta el tipo de contrato' }];
  if (!/^\d{3}$/.test(code)) return [{ field: 'tipoContrato', message: 'El tipo de contrato es un código de 3 cifras (100, 189, 401...)' }];
  const coefficient = cellText(check.cells.coeficiente);
  const partTime = isPartTimeContract(code);
  if (!partTime) {
    return coefficient !== '' && Number(coefficient) !== 0
      ? [{ field: 'coeficiente', message: `El contrato ${code} es a tiempo completo: no lleva coeficiente de parcialidad` }]
      : [];
  }
  if (coefficient === '') return [{ field: 'coeficiente', message: `El contrato ${code} es a tiempo parcial: falta el coeficiente de parcialidad` }];
  const value = Number(coefficient);
  return Number.isInteger(value) && value >= 1 && value <= 999
    ? []
    : [{ field: 'coeficiente', message: 'El coeficiente de parcialidad va de 1 a 999 (milésimas de jornada: 500 es media jornada)' }];
}

function checkGroup(text: string): string | null {
  if (text === '') return 'Falta el grupo de cotización';
  const group = Number(text);
  return /^\d{1,2}$/.test(text) && group >= 1 && group <= 11 ? null : 'El grupo de cotización va del 1 al 11';
}

/** Every problem Sistema RED would find in the row, in the order of the form. */
export function checkWorker(check: RowCheck): Problem[] {
  const text = (field: WorkerField) => cellText(check.cells[field]);
  const problems: Problem[] = [];
  const add = (field: WorkerField, message: string | null) => {
    if (message !== null) problems.push({ field, message });
  };
  add('documento', checkDocument(check, text('documento')));
  add('naf', checkDigitsIdentifier(check.cells.naf, 'NAF', 12, isValidNafControl));
  add('ccc', checkDigitsIdentifier(check.cells.ccc, 'CCC', 11, isValidCcc));
  add('nombre', checkName('nombre', 'Nombre', text('nombre'), true));
  add('primerApellido', checkName('primerApellido', 'Primer apellido', text('primerApellido'), true));
  add('segundoApellido', checkName('segundoApellido', 'Segundo apellido', text('segundoApellido'), false));
  add('sexo', checkSex(text('sexo')));
  const start = checkStartDate(check);
  add('fechaNacimiento', checkBirthDate(check, start.date));
  add('fechaAlta', start.problem);
  problems.push(...checkContract(check));
  add('grupoCotizacion', checkGroup(text('grupoCotizacion')));
  return problems;
}

/** What makes two rows the same alta: the document and the CCC, compacted. */
export function altaKey(check: Pick<RowCheck, 'cells'>): string | null {
  const document = compactIdentifier(cellText(check.cells.documento));
  const ccc = compactIdentifier(cellText(check.cells.ccc));
  return document === '' ? null : `${document}|${ccc}`;
}
