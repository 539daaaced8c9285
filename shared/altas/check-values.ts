import type { FieldsValues, FormField } from '../api/altas.ts';
import { formFieldError, toIsoDate } from '../forms/fields.ts';
import { isEmptyValue, MANDATORY_MESSAGE } from '../validation/validate.ts';
import { NIE_LETTER_MESSAGE, NIF_LETTER_MESSAGE, documentLetterProblem, isValidNie, isValidNif, isValidPassport } from '../validation/identifiers.ts';
import { altaRuleErrors } from './alta-rules.ts';
import { FIELD } from './form-definition.ts';

/** Checks of a submission's values against the firm's form (issue 23): { [fieldKey]: Spanish message }. */

export const UNKNOWN_FIELD_MESSAGE = 'Este campo no existe en el formulario';
export const INVALID_OPTION_MESSAGE = 'Selecciona una de las opciones';
export const CCC_NOT_OF_COMPANY_MESSAGE = 'Selecciona una cuenta de cotización de la empresa';
export const DOCUMENT_MISMATCH_MESSAGE = 'El número no corresponde al tipo de documento elegido';
export const INVALID_VALUE_MESSAGE = 'El valor no es válido';

export interface ValuesCheckContext {
  /** The company's CCC keys (the options of fields whose values come from 'CCC'). */
  companyCcc: readonly string[];
  /** Only fields of these writers are checked; the other writers' keys must not come (default: all). */
  writers?: readonly FormField['fieldWriter'][];
}

const isFileValue = (value: unknown): value is { fileId: string } =>
  typeof value === 'object' && value !== null && 'fileId' in value && typeof (value as { fileId: unknown }).fileId === 'string';

/** Which document numbers each 'Tipo de documento' accepts (1 DNI/NIF, 2 pasaporte, 6 NIE). */
const DOCUMENT_CHECKS: Record<string, (text: string) => boolean> = {
  '1': isValidNif,
  '2': isValidPassport,
  '6': isValidNie,
};

function optionsOf(field: FormField, values: FieldsValues, context: ValuesCheckContext): readonly string[] | null {
  if (field.validValuesFromExtraFields?.field === 'CCC') return context.companyCcc;
  if (field.dependentKey !== undefined) {
    const chosen = values[field.dependentKey];
    return typeof chosen === 'string' ? (field.dependentOptions?.[chosen] ?? []).map((option) => option.key) : [];
  }
  if (field.validValues !== undefined && field.validValues.length > 0) return field.validValues.map((option) => option.key);
  return null;
}

function fieldMessage(field: FormField, value: unknown, values: FieldsValues, context: ValuesCheckContext): string | null {
  if (field.fieldType === 'file') {
    if (isEmptyValue(value)) return field.required === true ? MANDATORY_MESSAGE : null;
    return isFileValue(value) ? null : INVALID_VALUE_MESSAGE;
  }
  if (isFileValue(value)) return INVALID_VALUE_MESSAGE;
  if (field.fieldType === 'checkbox' && typeof value !== 'boolean' && !isEmptyValue(value)) return INVALID_VALUE_MESSAGE;
  if (field.fieldType !== 'checkbox' && typeof value === 'boolean') return INVALID_VALUE_MESSAGE;
  if (field.fieldType === 'dropdown') {
    if (isEmptyValue(value)) return field.required === true ? MANDATORY_MESSAGE : null;
    const options = optionsOf(field, values, context);
    if (options === null) return null;
    if (options.includes(String(value))) return null;
    return field.validValuesFromExtraFields?.field === 'CCC' ? CCC_NOT_OF_COMPANY_MESSAGE : INVALID_OPTION_MESSAGE;
  }
  return formFieldError(field, value);
}

/**
 * The per-field errors of a submission's values: required fields, validators, options (dependent ones
 * and the company's CCC list), the document number against its type, and the rules across fields of
 * alta-rules.ts (age, date order, coefficient and jornada). An empty object means the values are fine.
 */
export function submissionValueErrors(fields: Record<string, FormField>, values: FieldsValues, context: ValuesCheckContext): Record<string, string> {
  const writers = context.writers ?? ['client', 'userBefore'];
  const errors: Record<string, string> = {};
  for (const key of Object.keys(values)) {
    const field = fields[key];
    if (field === undefined || !writers.includes(field.fieldWriter)) errors[key] = UNKNOWN_FIELD_MESSAGE;
  }
  for (const [key, field] of Object.entries(fields)) {
    if (!writers.includes(field.fieldWriter) || key in errors) continue;
    const message = fieldMessage(field, values[key], values, context);
    if (message !== null) errors[key] = message;
  }

  const documentType = values[FIELD.tipoDocumento];
  const documentNumber = values[FIELD.nif];
  const documentCheck = typeof documentType === 'string' ? DOCUMENT_CHECKS[documentType] : undefined;
  if (!(FIELD.nif in errors) && documentCheck !== undefined && typeof documentNumber === 'string' && documentNumber.trim() !== '' && !documentCheck(documentNumber.trim().toUpperCase())) {
    // A NIF or NIE of the chosen type whose letter is wrong says so; another kind of number does not match the type.
    const letter = documentLetterProblem(documentNumber);
    const sameKind = (documentType === '1' && letter === NIF_LETTER_MESSAGE) || (documentType === '6' && letter === NIE_LETTER_MESSAGE);
    errors[FIELD.nif] = sameKind && letter !== null ? letter : DOCUMENT_MISMATCH_MESSAGE;
  }
  // Rules across fields (age, date order, coefficient and jornada), on fields of these writers that passed their own checks.
  for (const [key, message] of Object.entries(altaRuleErrors(values))) {
    const field = fields[key];
    if (field !== undefined && writers.includes(field.fieldWriter) && !(key in errors)) errors[key] = message;
  }
  return errors;
}

/**
 * Format checks only (no required fields): the advisor's values of a group, which hold the
 * 'userBefore' fields and may be filled in several steps.
 */
export function groupValueErrors(fields: Record<string, FormField>, values: FieldsValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = fields[key];
    if (field === undefined || field.fieldWriter !== 'userBefore') {
      errors[key] = UNKNOWN_FIELD_MESSAGE;
      continue;
    }
    if (isEmptyValue(value)) continue;
    const message = fieldMessage({ ...field, required: false }, value, values, { companyCcc: [] });
    if (message !== null) errors[key] = message;
  }
  for (const [key, message] of Object.entries(groupRuleErrors(fields, values))) errors[key] ??= message;
  return errors;
}

/**
 * The rules across the advisor's fields of a group (the coefficient against the jornada): what RED
 * would refuse in every alta of the group. Checked on the group's values as saved (a PATCH's merged with the stored ones).
 */
export function groupRuleErrors(fields: Record<string, FormField>, values: FieldsValues): Record<string, string> {
  return Object.fromEntries(Object.entries(altaRuleErrors(values)).filter(([key]) => fields[key]?.fieldWriter === 'userBefore'));
}

/** Merges a group's advisor values under the submission's own (the submission's win where both have a value). */
export function mergeGroupValues(groupValues: FieldsValues, values: FieldsValues): FieldsValues {
  const merged: FieldsValues = { ...groupValues };
  for (const [key, value] of Object.entries(values)) if (!isEmptyValue(value) || !(key in merged)) merged[key] = value;
  return merged;
}

/** Values as stored: text trimmed, dates as ISO days ('31/05/1990' -> '1990-05-31'); the rest as sent. */
export function normalizeSubmissionValues(fields: Record<string, FormField>, values: FieldsValues): FieldsValues {
  const normalized: FieldsValues = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== 'string') {
      normalized[key] = value;
      continue;
    }
    const text = value.trim();
    normalized[key] = fields[key]?.fieldType === 'date' ? (toIsoDate(text) ?? text) : text;
  }
  return normalized;
}
