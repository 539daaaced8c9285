import type { A3AltaRow, FieldsValues, FormField, RedAltaRecord } from '../api/altas.ts';
import { toIsoDate } from '../forms/fields.ts';
import { compactIdentifier } from '../validation/identifiers.ts';
import { submissionValueErrors } from './check-values.ts';
import { FIELD } from './form-definition.ts';

/** What the RED and A3 robots get from a submission (issue 23, research external-systems §2.2). */

export interface SubmissionForRecords {
  id: string;
  companyName: string;
  companyCcc: readonly string[];
  values: FieldsValues;
}

const textOf = (values: FieldsValues, key: string): string => {
  const value = values[key];
  return typeof value === 'string' ? value.trim() : '';
};

/** 'Nombre Apellido1 Apellido2' with single spaces. */
export function workerName(values: FieldsValues): string {
  return [FIELD.nombre, FIELD.primerApellido, FIELD.segundoApellido].map((key) => textOf(values, key)).filter((part) => part !== '').join(' ');
}

/**
 * A date field's value as people read it, 'dd/mm/yyyy' (spec §9), in mails and lists; '' when it is no date.
 * A calendar day, so no clock is involved: '2026-12-09' is 09/12/2026 anywhere.
 */
export function formatAltaDay(value: unknown): string {
  const iso = toIsoDate(value);
  if (iso === null) return '';
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}

/** Spec §3: a submission's title is the worker's name plus the company. */
export function submissionTitle(values: FieldsValues, companyName: string): string {
  const worker = workerName(values);
  return worker === '' ? companyName : `${worker} - ${companyName}`;
}

/** The Spanish problem of a submission the robots cannot take yet, or null when it is complete. */
export function incompleteProblem(fields: Record<string, FormField>, submission: SubmissionForRecords): string | null {
  const errors = submissionValueErrors(fields, submission.values, { companyCcc: submission.companyCcc });
  const keys = Object.keys(errors);
  if (keys.length === 0) return null;
  const titles = keys.map((key) => fields[key]?.title ?? key);
  return `Faltan datos o no son válidos: ${titles.join(', ')}`;
}

type Built<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The fields both robots read, once the submission's values passed the form's checks. */
function commonFields(values: FieldsValues) {
  const jornada = textOf(values, FIELD.jornada);
  const coefficient = textOf(values, FIELD.coeficiente);
  const sexo = textOf(values, FIELD.sexo);
  return {
    primerApellido: textOf(values, FIELD.primerApellido).toUpperCase(),
    segundoApellido: textOf(values, FIELD.segundoApellido).toUpperCase(),
    nombre: textOf(values, FIELD.nombre).toUpperCase(),
    fechaNacimiento: toIsoDate(values[FIELD.fechaNacimiento]) ?? '',
    sexo: sexo === '1' || sexo === '2' ? sexo : '',
    tipoContrato: textOf(values, FIELD.tipoContrato),
    grupoCotizacion: textOf(values, FIELD.grupoCotizacion),
    coeficienteParcialidad: jornada === 'parcial' && coefficient !== '' ? coefficient.padStart(3, '0') : '',
    convenio: textOf(values, FIELD.convenio),
    ocupacion: textOf(values, FIELD.ocupacion),
  };
}

/** One alta as RED's ATR01 takes it: NAF 2+10, IPF padded to 10, CCC 2+9, régimen general, situación alta. */
export function toRedAltaRecord(fields: Record<string, FormField>, submission: SubmissionForRecords): Built<RedAltaRecord> {
  const problem = incompleteProblem(fields, submission);
  if (problem !== null) return { ok: false, problem };
  const { values } = submission;
  const naf = compactIdentifier(textOf(values, FIELD.naf));
  const ccc = compactIdentifier(textOf(values, FIELD.ccc));
  const fechaReal = toIsoDate(values[FIELD.fechaAlta]);
  if (naf.length !== 12) return { ok: false, problem: 'El NAF debe tener 12 dígitos' };
  if (ccc.length !== 11) return { ok: false, problem: 'La cuenta de cotización debe tener 11 dígitos' };
  if (fechaReal === null) return { ok: false, problem: 'Falta la fecha de alta' };
  return {
    ok: true,
    value: {
      submissionId: submission.id,
      worker: workerName(values),
      company: submission.companyName,
      nafProvince: naf.slice(0, 2),
      nafNumber: naf.slice(2),
      regimen: '0111',
      ipfType: textOf(values, FIELD.tipoDocumento),
      ipfNumber: compactIdentifier(textOf(values, FIELD.nif)).padStart(10, '0'),
      cccProvince: ccc.slice(0, 2),
      cccNumber: ccc.slice(2),
      situacion: '01',
      fechaReal,
      ...commonFields(values),
    },
  };
}

/** One row of A3's '202 – MA' workbook. */
export function toA3AltaRow(fields: Record<string, FormField>, submission: SubmissionForRecords): Built<A3AltaRow> {
  const problem = incompleteProblem(fields, submission);
  if (problem !== null) return { ok: false, problem };
  const { values } = submission;
  const fechaAlta = toIsoDate(values[FIELD.fechaAlta]);
  if (fechaAlta === null) return { ok: false, problem: 'Falta la fecha de alta' };
  const common = commonFields(values);
  return {
    ok: true,
    value: {
      submissionId: submission.id,
      ccc: compactIdentifier(textOf(values, FIELD.ccc)),
      nif: compactIdentifier(textOf(values, FIELD.nif)),
      naf: compactIdentifier(textOf(values, FIELD.naf)),
      primerApellido: common.primerApellido,
      segundoApellido: common.segundoApellido,
      nombre: common.nombre,
      fechaAlta,
      tipoContrato: common.tipoContrato,
      grupoCotizacion: common.grupoCotizacion,
      coeficienteParcialidad: common.coeficienteParcialidad,
      convenio: common.convenio,
      ocupacion: common.ocupacion,
      categoria: textOf(values, FIELD.categoria),
      fechaNacimiento: common.fechaNacimiento,
      sexo: common.sexo,
    },
  };
}
