import { madridDayKey } from '../time/madrid.ts';
import { parseCalendarDate } from '../validation/formats.ts';
import { DEFAULT_MESSAGE, MANDATORY_MESSAGE, isEmptyValue, validate, type ValidationRule } from '../validation/validate.ts';

/** Form-to-flow field definitions and the rules the renderer applies to them (spec §3, §5). */

export type FormFieldType = 'text' | 'date' | 'dropdown' | 'checkbox' | 'file';

export interface ValidValue {
  key: string;
  text: string;
}

export interface FormFieldDefinition {
  fieldType: FormFieldType;
  title: string;
  required?: boolean;
  /** Validator subtype for text fields: a name from the generic validator table, '|' alternatives allowed. */
  validate?: string;
  validValues?: ValidValue[];
  validValuesFromExtraFields?: { field: string };
}

/**
 * A dropdown with no valid values is treated as text (spec §5). One that takes its values from
 * another field's extra values is still a dropdown: its options arrive at run time.
 */
export function normalizeFieldDefinition<T extends FormFieldDefinition>(field: T): T {
  const hasValues = (field.validValues?.length ?? 0) > 0 || field.validValuesFromExtraFields !== undefined;
  return field.fieldType === 'dropdown' && !hasValues ? { ...field, fieldType: 'text' } : field;
}

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

/**
 * A date field's value as an ISO calendar date 'yyyy-mm-dd', or null when it is not a date.
 * Text without a time ('31/05/1990', '1990-05-31') keeps its day; an instant (Date object or ISO
 * text with a time) is read on the Madrid day, so a picker's local midnight does not slip a day.
 */
export function toIsoDate(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : madridDayKey(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text.includes('T')) return parseCalendarDate(text) === null ? null : madridDayKey(new Date(text));
  const day = parseCalendarDate(text);
  return day === null ? null : `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}`;
}

/**
 * Normalises a stored or typed value for its field: checkboxes become booleans (the string 'true'
 * is true), dates become ISO calendar dates; text that is not a date is kept so validation can flag it.
 */
export function normalizeFieldValue(fieldType: FormFieldType, value: unknown): unknown {
  if (fieldType === 'checkbox') return value === true || value === 'true';
  if (fieldType === 'date') return toIsoDate(value) ?? value;
  return value;
}

/** What an input knows about itself when it is checked. */
export interface FieldCheck {
  value: unknown;
  required?: boolean;
  formatRequired?: boolean;
  rule?: ValidationRule;
}

/**
 * Spec §5: an error when required and empty, or when formatRequired and the value is not empty
 * and invalid. Returns the Spanish message, or null when the input is fine.
 */
export function fieldError({ value, required = false, formatRequired = false, rule }: FieldCheck): string | null {
  if (isEmptyValue(value)) return required ? MANDATORY_MESSAGE : null;
  if (!formatRequired || rule === undefined) return null;
  const result = validate(value, rule);
  return result.valid ? null : (result.message ?? DEFAULT_MESSAGE);
}

/** Text fields are checked by their validator subtype and dates as dates; dropdowns, checkboxes and files only for presence. */
export function ruleForField(field: FormFieldDefinition): ValidationRule | undefined {
  if (field.fieldType === 'date') return 'date';
  if (field.fieldType === 'text' && field.validate !== undefined && field.validate.trim() !== '') return field.validate;
  return undefined;
}

/**
 * The error a form-to-flow field shows for a value. The format is checked whenever the value is not
 * empty; a required checkbox must be ticked.
 */
export function formFieldError(definition: FormFieldDefinition, value: unknown): string | null {
  const field = normalizeFieldDefinition(definition);
  const normalized = normalizeFieldValue(field.fieldType, value);
  if (field.fieldType === 'checkbox') return field.required === true && normalized !== true ? MANDATORY_MESSAGE : null;
  return fieldError({ value: normalized, required: field.required === true, formatRequired: true, rule: ruleForField(field) });
}
