import { describe, expect, it } from 'vitest';
import type { FieldsValues } from '../api/altas.ts';
import { NIE_LETTER_MESSAGE, NIF_LETTER_MESSAGE } from '../validation/identifiers.ts';
import { MANDATORY_MESSAGE } from '../validation/validate.ts';
import {
  CCC_NOT_OF_COMPANY_MESSAGE, DOCUMENT_MISMATCH_MESSAGE, FULL_TIME_COEFFICIENT_MESSAGE, INVALID_OPTION_MESSAGE, PART_TIME_COEFFICIENT_MISSING_MESSAGE,
  PART_TIME_COEFFICIENT_RANGE_MESSAGE, START_BEFORE_ALTA_MESSAGE, UNKNOWN_FIELD_MESSAGE, builtInFields, effectiveDefinition, effectiveFields,
  fieldOverrideErrors, formPagesErrors, groupRuleErrors, groupValueErrors, mergeGroupValues, normalizeSubmissionValues, submissionTitle, submissionValueErrors, toA3AltaRow, toRedAltaRecord,
  underAgeMessage,
} from './index.ts';

const CCC = '28123456742';
const complete: FieldsValues = {
  nombre: 'Lucía',
  PrimerApellido: 'García',
  SegundoApellido: 'Ruiz',
  'Tipo de documento': '1',
  NIF: '12345678Z',
  NAF: '281234567840',
  email: 'lucia@example.com',
  telefono: '612345678',
  Sexo: '2',
  'Fecha Nacimiento': '1990-05-31',
  'Fecha Alta': '2026-12-01',
  CCC,
  IBAN: null,
  Jornada: 'parcial',
  'Tipo Contrato*': '200',
  'Coeficiente Parcialidad': '500',
  'Grupo Cotización': '07',
  'Convenio Colectivo': '46000805011981',
  'CN Ocupación': '5120',
};
const fields = builtInFields();
const context = { companyCcc: [CCC] };

describe('submissionValueErrors', () => {
  it('accepts a complete alta', () => {
    expect(submissionValueErrors(fields, complete, context)).toEqual({});
  });

  it('names each missing or wrong field', () => {
    const errors = submissionValueErrors(fields, { ...complete, nombre: ' ', NAF: '281234567841', email: 'no', extra: 'x' }, context);
    expect(errors).toEqual({ nombre: MANDATORY_MESSAGE, NAF: expect.stringContaining('NAF') as string, email: expect.stringContaining('correo') as string, extra: UNKNOWN_FIELD_MESSAGE });
  });

  it('checks the document number against the chosen type', () => {
    expect(submissionValueErrors(fields, { ...complete, 'Tipo de documento': '6' }, context)).toEqual({ NIF: DOCUMENT_MISMATCH_MESSAGE });
    expect(submissionValueErrors(fields, { ...complete, 'Tipo de documento': '6', NIF: 'X1234567L' }, context)).toEqual({});
  });

  it('says a NIF or NIE whose letter is wrong has the wrong letter (the field took it as a passport number)', () => {
    expect(submissionValueErrors(fields, { ...complete, NIF: '12345678A' }, context)).toEqual({ NIF: NIF_LETTER_MESSAGE });
    expect(submissionValueErrors(fields, { ...complete, 'Tipo de documento': '6', NIF: 'X1234567A' }, context)).toEqual({ NIF: NIE_LETTER_MESSAGE });
    // A NIE under 'D.N.I./N.I.F.' is not a wrong letter: it is the wrong type.
    expect(submissionValueErrors(fields, { ...complete, NIF: 'X1234567A' }, context)).toEqual({ NIF: DOCUMENT_MISMATCH_MESSAGE });
  });

  it('refuses a worker under 16 on the fecha de alta and a contract that starts before it', () => {
    expect(submissionValueErrors(fields, { ...complete, 'Fecha Nacimiento': '2015-03-10' }, context)).toEqual({ 'Fecha Nacimiento': underAgeMessage(11) });
    expect(submissionValueErrors(fields, { ...complete, 'Fecha Inicio': '2026-11-30' }, context)).toEqual({ 'Fecha Inicio': START_BEFORE_ALTA_MESSAGE });
    expect(submissionValueErrors(fields, { ...complete, 'Fecha Inicio': '2026-12-01' }, context)).toEqual({});
    // The company's own check applies them too (its dates are its fields).
    const clientOnly = Object.fromEntries(Object.entries(complete).filter(([key]) => fields[key]?.fieldWriter === 'client'));
    expect(submissionValueErrors(fields, { ...clientOnly, 'Fecha Nacimiento': '2015-03-10' }, { ...context, writers: ['client'] })).toEqual({ 'Fecha Nacimiento': underAgeMessage(11) });
  });

  it('takes contract types from the working day, and the CCC from the company', () => {
    expect(submissionValueErrors(fields, { ...complete, 'Tipo Contrato*': '100' }, context)).toEqual({ 'Tipo Contrato*': INVALID_OPTION_MESSAGE });
    expect(submissionValueErrors(fields, { ...complete, CCC: '46111111177' }, context)).toEqual({ CCC: CCC_NOT_OF_COMPANY_MESSAGE });
  });

  it('wants the coefficient for part time (1 to 999), and none or 1000 for full time', () => {
    expect(submissionValueErrors(fields, { ...complete, 'Coeficiente Parcialidad': null }, context)).toEqual({ 'Coeficiente Parcialidad': PART_TIME_COEFFICIENT_MISSING_MESSAGE });
    expect(submissionValueErrors(fields, { ...complete, 'Coeficiente Parcialidad': '1000' }, context)).toEqual({ 'Coeficiente Parcialidad': PART_TIME_COEFFICIENT_RANGE_MESSAGE });
    expect(submissionValueErrors(fields, { ...complete, 'Coeficiente Parcialidad': '1001' }, context)['Coeficiente Parcialidad']).toBe('El coeficiente de parcialidad es un número de 1 a 1000 (‰)');
    const fullTime = { ...complete, Jornada: 'completa', 'Tipo Contrato*': '100' };
    expect(submissionValueErrors(fields, { ...fullTime, 'Coeficiente Parcialidad': null }, context)).toEqual({});
    expect(submissionValueErrors(fields, { ...fullTime, 'Coeficiente Parcialidad': '1000' }, context)).toEqual({});
    expect(submissionValueErrors(fields, { ...fullTime, 'Coeficiente Parcialidad': '500' }, context)).toEqual({ 'Coeficiente Parcialidad': FULL_TIME_COEFFICIENT_MESSAGE });
  });

  it("checks only the company's fields for the company, and refuses the advisor's keys from it", () => {
    const clientOnly = Object.fromEntries(Object.entries(complete).filter(([key]) => fields[key]?.fieldWriter === 'client'));
    expect(submissionValueErrors(fields, clientOnly, { ...context, writers: ['client'] })).toEqual({});
    expect(submissionValueErrors(fields, { ...clientOnly, Jornada: 'completa' }, { ...context, writers: ['client'] })).toEqual({ Jornada: UNKNOWN_FIELD_MESSAGE });
  });

  it('refuses a file where text goes and text where a file goes', () => {
    const file = { fileId: 'f1', name: 'dni.png', size: 10, type: 'image/png' };
    expect(submissionValueErrors(fields, { ...complete, nombre: file, Contrato: 'contrato.pdf' }, context)).toEqual({ nombre: 'El valor no es válido', Contrato: 'El valor no es válido' });
    expect(submissionValueErrors(fields, { ...complete, Contrato: file }, context)).toEqual({});
  });
});

describe('group values and merging', () => {
  it("checks the advisor's formats but not required ones, and refuses company fields", () => {
    expect(groupValueErrors(fields, { Jornada: 'completa' })).toEqual({});
    expect(groupValueErrors(fields, { 'Convenio Colectivo': '123', nombre: 'Ana' })).toEqual({ 'Convenio Colectivo': 'El código de convenio debe tener 14 dígitos', nombre: UNKNOWN_FIELD_MESSAGE });
  });

  it('refuses a group RED would refuse: Completa with 500 ‰, Parcial without a coefficient', () => {
    expect(groupValueErrors(fields, { Jornada: 'completa', 'Coeficiente Parcialidad': '500' })).toEqual({ 'Coeficiente Parcialidad': FULL_TIME_COEFFICIENT_MESSAGE });
    expect(groupValueErrors(fields, { Jornada: 'parcial', 'Tipo Contrato*': '200' })).toEqual({ 'Coeficiente Parcialidad': PART_TIME_COEFFICIENT_MISSING_MESSAGE });
    expect(groupValueErrors(fields, { Jornada: 'parcial', 'Coeficiente Parcialidad': '500' })).toEqual({});
    expect(groupValueErrors(fields, { Jornada: 'completa', 'Coeficiente Parcialidad': '1000' })).toEqual({});
    // Only the advisor's fields: the company's dates are not the group's business.
    expect(groupRuleErrors(fields, { 'Fecha Alta': '2026-12-01', 'Fecha Nacimiento': '2015-01-01' })).toEqual({});
  });

  it('stores dates as ISO days and text trimmed', () => {
    expect(normalizeSubmissionValues(fields, { 'Fecha Alta': '01/12/2026', nombre: '  Lucía ', Sexo: null })).toEqual({ 'Fecha Alta': '2026-12-01', nombre: 'Lucía', Sexo: null });
  });

  it("puts the group's values under the submission's", () => {
    expect(mergeGroupValues({ Jornada: 'completa', 'CN Ocupación': '5120' }, { Jornada: 'parcial', 'CN Ocupación': '' })).toEqual({ Jornada: 'parcial', 'CN Ocupación': '5120' });
  });
});

describe('overrides', () => {
  it('refuses to loosen a locked field and accepts other changes', () => {
    expect(fieldOverrideErrors({ CCC: { required: false }, 'Tipo Contrato*': { fieldWriter: 'client' }, nope: {} })).toEqual({
      CCC: expect.stringContaining('obligatorio') as string,
      'Tipo Contrato*': expect.stringContaining('quién lo rellena') as string,
      nope: UNKNOWN_FIELD_MESSAGE,
    });
    expect(fieldOverrideErrors({ SegundoApellido: { required: true, title: 'Segundo apellido (si tiene)' }, CCC: { title: 'Cuenta' } })).toEqual({});
    expect(effectiveFields({ SegundoApellido: { required: true } }).SegundoApellido?.required).toBe(true);
  });

  it('refuses unknown or repeated fields in pages and gives the default pages without a configuration', () => {
    expect(formPagesErrors([{ title: 'A', fields: ['nombre'] }, { title: 'B', fields: ['nombre', 'x'] }])).toEqual({ 'formPages.1': expect.stringContaining('x') as string });
    const definition = effectiveDefinition({ title: null, url: null, logo: null, formPages: null, overrides: {} });
    expect(definition.defaultFormPages.map((page) => page.title)).toEqual(['Datos personales', 'Contrato', 'Documentos']);
    expect(definition.fieldsOrder).toContain('Tipo Contrato*');
  });
});

describe('records for the robots', () => {
  const submission = { id: 's1', companyName: 'Hostelería Levante S.L.', companyCcc: [CCC], values: complete };

  it('titles a submission with the worker and the company', () => {
    expect(submissionTitle(complete, 'Hostelería Levante S.L.')).toBe('Lucía García Ruiz - Hostelería Levante S.L.');
  });

  it('splits NAF, CCC and pads the document for RED', () => {
    const built = toRedAltaRecord(fields, submission);
    expect(built).toEqual({
      ok: true,
      value: expect.objectContaining({
        nafProvince: '28', nafNumber: '1234567840', ipfType: '1', ipfNumber: '012345678Z', cccProvince: '28', cccNumber: '123456742',
        regimen: '0111', situacion: '01', fechaReal: '2026-12-01', coeficienteParcialidad: '500', tipoContrato: '200', sexo: '2', nombre: 'LUCÍA',
      }) as unknown,
    });
  });

  it('gives A3 its row and names what is missing', () => {
    const row = toA3AltaRow(fields, submission);
    expect(row.ok && row.value).toEqual(expect.objectContaining({ ccc: CCC, nif: '12345678Z', naf: '281234567840', fechaAlta: '2026-12-01', convenio: '46000805011981' }));
    const incomplete = toA3AltaRow(fields, { ...submission, values: { ...complete, NAF: null } });
    expect(incomplete).toEqual({ ok: false, problem: 'Faltan datos o no son válidos: Número de afiliación (NAF)' });
  });
});
