import type { FieFieldDef, FieFieldType, FieSegment, LookupTableName } from './types.ts';

/*
 * The FIE layout as data. Offsets are 0-based and include the 3-character tag, as in the
 * open-source parsers the research read (Aon's FieParser for EMP/RZS/TRA/AYN/DIT/ITD/CIT, the AFI
 * parser for the EMP/RZS/TRA sub-fields). Rows marked provisional have no real file or official
 * layout behind them yet; change them here, and only here, when a real FIE4 sample arrives.
 */

interface Row {
  code: number;
  at: [start: number, end: number];
  type: FieFieldType;
  label: string;
  ref: string;
  table?: LookupTableName;
  provisional?: boolean;
}

function segment(tag: FieSegment, rows: Row[]): FieFieldDef[] {
  return rows.map(({ code, at: [start, end], type, label, ref, table, provisional }) => ({
    code,
    segment: tag,
    offset: start,
    length: end - start,
    type,
    label,
    ref,
    ...(table ? { table } : {}),
    provisional: provisional ?? false,
  }));
}

export const FIE_CATALOGUE: readonly FieFieldDef[] = [
  // The file date of the header, by analogy with the AFI header (no FIE sample seen).
  ...segment('ETI', [{ code: 100, at: [29, 37], type: 'date', label: 'Fecha de registro', ref: 'registryDate', provisional: true }]),
  ...segment('EMP', [
    { code: 310, at: [7, 18], type: 'code', label: 'CCC', ref: 'ccc' },
    { code: 320, at: [3, 7], type: 'code', label: 'Régimen de la Seguridad Social', ref: 'regime', table: 'regimes' },
    { code: 330, at: [7, 9], type: 'code', label: 'Provincia', ref: 'province', table: 'provinces' },
    { code: 360, at: [18, 19], type: 'code', label: 'Tipo de identificador del empresario', ref: 'employerIdType', table: 'employerIdTypes' },
    { code: 370, at: [19, 22], type: 'code', label: 'País del identificador del empresario', ref: 'employerCountry' },
    { code: 380, at: [22, 36], type: 'nif', label: 'Identificador del empresario', ref: 'employerId' },
  ]),
  ...segment('RZS', [
    { code: 520, at: [4, 5], type: 'code', label: 'Tipo de empresario', ref: 'employerType', table: 'employerTypes' },
    { code: 530, at: [5, 60], type: 'text', label: 'Razón social', ref: 'companyName' },
  ]),
  ...segment('TRA', [
    { code: 610, at: [3, 15], type: 'code', label: 'NAF', ref: 'naf' },
    { code: 620, at: [3, 5], type: 'code', label: 'Provincia del NAF', ref: 'nafProvince', table: 'provinces' },
    { code: 650, at: [15, 16], type: 'code', label: 'Tipo de identificador', ref: 'idType', table: 'personIdTypes' },
    { code: 660, at: [16, 19], type: 'code', label: 'País del documento', ref: 'idCountry' },
    { code: 670, at: [19, 33], type: 'nif', label: 'NIF', ref: 'nif' },
  ]),
  ...segment('AYN', [
    { code: 820, at: [3, 23], type: 'text', label: 'Primer apellido', ref: 'firstSurname' },
    { code: 830, at: [23, 43], type: 'text', label: 'Segundo apellido', ref: 'secondSurname' },
    { code: 840, at: [43, 58], type: 'text', label: 'Nombre', ref: 'name' },
  ]),
  // DAF content is sourced (Aon's spreadsheet comments); its text offsets are a guess.
  ...segment('DAF', [
    { code: 910, at: [3, 11], type: 'date', label: 'Fecha inicio relación laboral', ref: 'employmentStart', provisional: true },
    { code: 920, at: [11, 19], type: 'date', label: 'Fecha extinción relación laboral', ref: 'employmentEnd', provisional: true },
  ]),
  ...segment('DIT', [
    { code: 1010, at: [3, 6], type: 'code', label: 'Entidad responsable', ref: 'responsibleEntity', table: 'entities' },
    { code: 1020, at: [6, 14], type: 'date', label: 'Fecha de baja', ref: 'leaveStartDate' },
    { code: 1030, at: [14, 15], type: 'flag', label: 'Recaída', ref: 'relapse' },
    { code: 1040, at: [15, 23], type: 'date', label: 'Fecha de inicio del proceso', ref: 'processStartDate' },
    { code: 1050, at: [23, 31], type: 'date', label: 'Fecha de baja del proceso anterior', ref: 'previousProcessDate' },
    { code: 1060, at: [31, 35], type: 'integer', label: 'Días acumulados', ref: 'accumulatedDays' },
    { code: 1070, at: [35, 43], type: 'date', label: 'Fecha de inexistencia del proceso', ref: 'nonExistentProcessDate' },
    { code: 1080, at: [43, 45], type: 'code', label: 'Causa de inexistencia del proceso', ref: 'nonExistentProcessCause' },
    { code: 1090, at: [45, 46], type: 'code', label: 'Contingencia', ref: 'contingency', table: 'contingencies' },
    { code: 1100, at: [46, 47], type: 'code', label: 'Indicador de carencia', ref: 'waitingPeriod', table: 'carencia' },
    { code: 1110, at: [47, 48], type: 'code', label: 'Tipo de proceso', ref: 'processType' },
    { code: 1120, at: [48, 52], type: 'integer', label: 'Duración estimada', ref: 'estimatedDuration' },
    { code: 1130, at: [52, 60], type: 'date', label: 'Fecha fin del pago delegado', ref: 'delegatedPaymentEndDate' },
    { code: 1140, at: [60, 62], type: 'code', label: 'Causa fin del pago delegado', ref: 'delegatedPaymentEndCause' },
    { code: 1150, at: [62, 70], type: 'date', label: 'Fecha de alta', ref: 'leaveEndDate' },
    { code: 1160, at: [70, 72], type: 'code', label: 'Causa de alta', ref: 'altaCause', table: 'altaCauses' },
    { code: 1170, at: [72, 73], type: 'flag', label: 'Parte anulado', ref: 'canceled' },
    // FIE3/FIE4 additions after offset 73: no source gives their layout; appended one character each.
    { code: 1171, at: [73, 74], type: 'flag', label: 'Parte anulado (2)', ref: 'canceledSecond', provisional: true },
    { code: 1172, at: [74, 75], type: 'code', label: 'Dato DIT 1172', ref: 'dit1172', provisional: true },
    { code: 1173, at: [75, 76], type: 'code', label: 'Modalidad de pago', ref: 'paymentMode', provisional: true },
    { code: 1174, at: [76, 77], type: 'flag', label: 'Indicador internacional', ref: 'international', provisional: true },
  ]),
  ...segment('ITD', [
    { code: 1310, at: [3, 11], type: 'date', label: 'Fecha inicio del pago directo', ref: 'directPaymentStart' },
    { code: 1320, at: [11, 14], type: 'code', label: 'Entidad que inicia el pago directo', ref: 'directPaymentEntity', table: 'entities' },
    { code: 1330, at: [14, 17], type: 'code', label: 'Entidad responsable actual', ref: 'currentEntity', table: 'entities' },
    { code: 1340, at: [17, 25], type: 'date', label: 'Fecha inicio pago de la entidad responsable', ref: 'entityPaymentStart' },
    { code: 1350, at: [25, 33], type: 'date', label: 'Fecha fin pago de la entidad responsable', ref: 'entityPaymentEnd' },
  ]),
  ...segment('CIT', [
    { code: 1520, at: [3, 11], type: 'date', label: 'Fecha del parte de confirmación', ref: 'confirmationDate' },
    { code: 1530, at: [11, 13], type: 'integer', label: 'Número del parte de confirmación', ref: 'confirmationNumber' },
  ]),
  // No offsets exist for these segments anywhere; one leading field each lets the type rules
  // (dip, jub, dop, nac) work on text files as well as on spreadsheets that name the columns.
  ...segment('DIP', [{ code: 1610, at: [3, 11], type: 'text', label: 'Datos de incapacidad permanente', ref: 'permanentDisability', provisional: true }]),
  ...segment('JUB', [{ code: 1810, at: [3, 11], type: 'text', label: 'Datos de jubilación', ref: 'retirement', provisional: true }]),
  ...segment('DOP', [{ code: 1910, at: [3, 5], type: 'code', label: 'Tipo de otra prestación', ref: 'otherBenefitType', provisional: true }]),
  ...segment('NAC', [{ code: 2110, at: [3, 11], type: 'text', label: 'Datos de nacimiento', ref: 'birth', provisional: true }]),
];

export const FIELD_BY_CODE: ReadonlyMap<number, FieFieldDef> = new Map(FIE_CATALOGUE.map((def) => [def.code, def]));

/** The catalogue rows of each segment, in catalogue order. */
export const FIELDS_BY_SEGMENT: ReadonlyMap<string, readonly FieFieldDef[]> = (() => {
  const bySegment = new Map<string, FieFieldDef[]>();
  for (const def of FIE_CATALOGUE) bySegment.set(def.segment, [...(bySegment.get(def.segment) ?? []), def]);
  return bySegment;
})();

/** Where the last catalogued field of a segment ends: text past it is reported as a long line. */
export function segmentEnd(tag: string): number {
  const defs = FIELDS_BY_SEGMENT.get(tag) ?? [];
  return defs.reduce((end, def) => Math.max(end, def.offset + def.length), 3);
}
