/**
 * The text of an AFI remittance (SILTRA's afiliación message): fixed 70-character lines, each a segment
 * whose first 3 characters are its tag. Positions (0-based [start, end)) are research external-systems
 * §2.4's, taken from an unofficial library: strong, not official. Per remittance one ETI; per CCC an EMP
 * and an RZS; per worker TRA, AYN, FAB, a DAM for part-time contracts (the initial coefficient) and an
 * ODL when there is a convenio or an ocupación.
 *
 * Ours where the research has no value: the ETI's version '1', program 'AAAS' and process version '1';
 * dates as AAAAMMDD, times HHMM; the id_registro's series '1' and ordinal '0001'; blanks for what an alta
 * from our form does not carry (employer id, IPF country, nationality, flags).
 */
import type { RedAltaRecord } from '#shared/api/altas.ts';

export const AFI_LINE_LENGTH = 70;
export const AFI_SYNTAX = 'AFI9';
export const AFI_VERSION = '1';
export const AFI_PROGRAM_ID = 'AAAS';
export const AFI_PROCESS_VERSION = '1';
/** FAB acción for an alta (TGSS table T07). */
export const AFI_ALTA_ACTION = 'MA';

export interface AfiHeader {
  /** Clave de autorización RED of the firm, 8 digits. */
  authorizationKey: string;
  /** AAAAMMDD and HHMM of the remittance. */
  date: string;
  time: string;
  /** The file's 8-character name (without .AFI). */
  fileName: string;
  /** The day's remittance number (envío), 1..99999. */
  sendNumber: number;
  /** 'P': a test remittance (SILTRA's prueba). */
  test: boolean;
}

/** A field of a segment: where it starts, how wide it is, and its value. */
type Field = [start: number, width: number, value: string];

/** One 70-char line: the tag, then each value at its place; numbers are pre-padded, text is cut to fit. */
export function segment(tag: string, fields: Field[]): string {
  const line = Array.from({ length: AFI_LINE_LENGTH }, () => ' ');
  [...tag].forEach((character, index) => (line[index] = character));
  for (const [start, width, value] of fields) {
    if (start + width > AFI_LINE_LENGTH) throw new Error(`El campo en la posición ${start} del segmento ${tag} no cabe en la línea`);
    [...value.slice(0, width).padEnd(width, ' ')].forEach((character, index) => (line[start + index] = character));
  }
  return line.join('');
}

/**
 * Text as SILTRA files carry it: upper case, latin1, accents dropped but Ñ and Ç kept; any other
 * character outside latin1 becomes a space.
 */
export function afiText(value: string): string {
  return [...value.toUpperCase()]
    .map((character) => (character === 'Ñ' || character === 'Ç' ? character : character.normalize('NFD').replace(/[\u0300-\u036f]/g, '')))
    .join('')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, ' ');
}

const compactDate = (iso: string) => iso.replace(/-/g, '');

export function etiLine(header: AfiHeader): string {
  const year = header.date.slice(2, 4);
  const month = header.date.slice(4, 6);
  const registryId = `${year}${month}1${String(header.sendNumber).padStart(5, '0')}0001`;
  return segment('ETI', [
    [3, 4, AFI_SYNTAX],
    [7, 1, AFI_VERSION],
    [8, 4, AFI_PROGRAM_ID],
    [12, 1, AFI_PROCESS_VERSION],
    [13, 8, header.authorizationKey],
    [29, 8, header.date],
    [37, 4, header.time],
    [41, 8, header.fileName],
    [49, 3, 'AFI'],
    [52, 1, 'N'],
    [53, 1, header.test ? 'P' : ' '],
    [54, 14, registryId],
  ]);
}

/** The company segments of a CCC: EMP (the CCC twice, as the layout names it) and RZS (its name). */
export function companyLines(record: RedAltaRecord, authorizationKey: string): string[] {
  return [
    segment('EMP', [
      [3, 4, record.regimen],
      [7, 2, record.cccProvince],
      [9, 9, record.cccNumber],
      [38, 4, record.regimen],
      [42, 2, record.cccProvince],
      [44, 9, record.cccNumber],
    ]),
    segment('RZS', [
      [5, 55, afiText(record.company)],
      [60, 8, authorizationKey],
    ]),
  ];
}

/** A worker's segments: TRA, AYN, FAB, DAM (part time), ODL (convenio or ocupación). */
export function workerLines(record: RedAltaRecord): string[] {
  const lines = [
    segment('TRA', [
      [3, 2, record.nafProvince],
      [5, 10, record.nafNumber],
      [15, 1, record.ipfType],
      // The IPF goes zero-left-padded to 14 here (10 in RED Online).
      [19, 14, record.ipfNumber.replace(/^0+/, '').padStart(14, '0')],
    ]),
    segment('AYN', [
      [3, 20, afiText(record.primerApellido)],
      [23, 20, afiText(record.segundoApellido)],
      [43, 15, afiText(record.nombre)],
    ]),
    segment('FAB', [
      [3, 3, AFI_ALTA_ACTION],
      [6, 2, record.situacion],
      [8, 8, compactDate(record.fechaReal)],
      [16, 2, record.grupoCotizacion.padStart(2, '0')],
      [21, 3, record.tipoContrato],
      [26, 3, record.coeficienteParcialidad],
      [40, 8, compactDate(record.fechaNacimiento)],
      [48, 1, record.sexo],
    ]),
  ];
  if (record.coeficienteParcialidad !== '') {
    lines.push(segment('DAM', [[3, 8, compactDate(record.fechaReal)], [67, 3, record.coeficienteParcialidad]]));
  }
  if (record.convenio !== '' || record.ocupacion !== '') {
    lines.push(segment('ODL', [[3, 14, record.convenio], [23, 4, record.ocupacion]]));
  }
  return lines;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a record cannot go in an AFI line as it is (a field that does not fit its place), or null. */
export function afiRecordProblem(record: RedAltaRecord): string | null {
  const checks: Array<[boolean, string]> = [
    [/^\d{2}$/.test(record.nafProvince) && /^\d{10}$/.test(record.nafNumber), 'el NAF debe tener 12 dígitos'],
    [/^\d$/.test(record.ipfType), 'falta el tipo de documento'],
    [/^[0-9A-Z]{1,14}$/.test(record.ipfNumber), 'el documento de identidad no es válido'],
    [/^\d{4}$/.test(record.regimen), 'el régimen debe tener 4 dígitos'],
    [/^\d{2}$/.test(record.cccProvince) && /^\d{9}$/.test(record.cccNumber), 'la cuenta de cotización debe tener 11 dígitos'],
    [/^\d{2}$/.test(record.situacion), 'la situación debe tener 2 dígitos'],
    [ISO_DATE.test(record.fechaReal), 'falta la fecha de alta'],
    [/^\d{1,2}$/.test(record.grupoCotizacion), 'el grupo de cotización no es válido'],
    [/^\d{3}$/.test(record.tipoContrato), 'el tipo de contrato debe tener 3 dígitos'],
    [/^(\d{3})?$/.test(record.coeficienteParcialidad), 'el coeficiente de parcialidad debe tener 3 dígitos'],
    [/^(\d{14})?$/.test(record.convenio), 'el convenio colectivo debe tener 14 dígitos'],
    [/^([0-9A-Z]{4})?$/.test(record.ocupacion), 'la ocupación (CNO) debe tener 4 caracteres'],
    [record.fechaNacimiento === '' || ISO_DATE.test(record.fechaNacimiento), 'la fecha de nacimiento no es válida'],
    [['', '1', '2'].includes(record.sexo), 'el sexo no es válido'],
    [record.primerApellido.trim() !== '' && record.nombre.trim() !== '', 'faltan el nombre o el primer apellido'],
  ];
  return checks.find(([ok]) => !ok)?.[1] ?? null;
}

/** The whole message: ETI, then each CCC's company segments followed by its workers, in the records' order. */
export function afiMessage(records: readonly RedAltaRecord[], header: AfiHeader): string[] {
  const byCcc = new Map<string, RedAltaRecord[]>();
  for (const record of records) {
    const key = `${record.regimen}${record.cccProvince}${record.cccNumber}`;
    byCcc.set(key, [...(byCcc.get(key) ?? []), record]);
  }
  const lines = [etiLine(header)];
  for (const group of byCcc.values()) {
    lines.push(...companyLines(group[0]!, header.authorizationKey));
    for (const record of group) lines.push(...workerLines(record));
  }
  return lines;
}
