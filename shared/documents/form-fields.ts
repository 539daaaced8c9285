import { z } from 'zod/mini';
import { parseCalendarDate } from '../validation/formats.ts';
import { MANDATORY_MESSAGE, isEmptyValue, validate } from '../validation/validate.ts';

/**
 * The fields of an online form (issue 40 §2): one per template placeholder the advisor keeps, each
 * with a type whose rule comes from shared/validation. The public page checks them as the client
 * types and the server checks them again with this same function before anything is stored.
 */

export const ONLINE_FIELD_TYPES = ['text', 'textarea', 'number', 'date', 'email', 'tel', 'nif', 'cif', 'naf', 'iban', 'ccc', 'select', 'checkbox'] as const;
export type OnlineFieldType = (typeof ONLINE_FIELD_TYPES)[number];

export const ONLINE_FIELD_TYPE_LABELS: Record<OnlineFieldType, string> = {
  text: 'Texto',
  textarea: 'Texto largo',
  number: 'Número',
  date: 'Fecha',
  email: 'Correo electrónico',
  tel: 'Teléfono',
  nif: 'NIF o NIE (persona)',
  cif: 'NIF, NIE o CIF (empresa)',
  naf: 'Número de afiliación (NAF)',
  iban: 'IBAN',
  ccc: 'Código de cuenta de cotización (CCC)',
  select: 'Desplegable',
  checkbox: 'Casilla',
};

/** The shared/validation rule behind each type; text-like types without one only check their length. */
const TYPE_RULES: Partial<Record<OnlineFieldType, string>> = {
  number: 'number',
  date: 'date',
  email: 'email',
  tel: 'tel',
  nif: 'nienif',
  cif: 'nienifcif',
  naf: 'nafcontrol',
  iban: 'iban',
  ccc: 'ccc',
};

export const MAX_FORM_FIELDS = 60;
export const MAX_FIELD_VALUE = 2_000;
export const MAX_TEXTAREA_VALUE = 10_000;

export const onlineFormFieldSchema = z.object({
  /** The template placeholder it fills ('Nombre', 'Fecha Alta'). */
  key: z.string().check(z.trim(), z.minLength(1, 'Cada campo necesita un nombre'), z.maxLength(80), z.regex(/^[^[\]]+$/, 'El nombre no puede llevar corchetes')),
  label: z.string().check(z.trim(), z.minLength(1, 'Escribe la pregunta del campo'), z.maxLength(200)),
  type: z.enum(ONLINE_FIELD_TYPES),
  required: z.boolean(),
  help: z.optional(z.string().check(z.maxLength(300))),
  /** A select's options. */
  options: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.maxLength(100))),
});
export type OnlineFormField = z.infer<typeof onlineFormFieldSchema>;

/** A sensible type for a placeholder by its name ('NIF trabajador' -> nif, 'Fecha de alta' -> date). */
export function guessFieldType(key: string): OnlineFieldType {
  const name = key.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (/\bfecha\b/.test(name)) return 'date';
  if (/\b(email|correo|e-mail)\b/.test(name)) return 'email';
  if (/\b(telefono|movil)\b/.test(name)) return 'tel';
  if (/\biban\b|\bcuenta bancaria\b/.test(name)) return 'iban';
  if (/\bccc\b|cuenta de cotizacion/.test(name)) return 'ccc';
  if (/\bnaf\b|afiliacion|seguridad social/.test(name)) return 'naf';
  if (/\bcif\b/.test(name)) return 'cif';
  if (/\b(nif|nie|dni)\b/.test(name)) return 'nif';
  if (/\b(direccion|observaciones|comentarios)\b/.test(name)) return 'textarea';
  return 'text';
}

/** A form's fields for a template's placeholders, guessing each type; all required. */
export function fieldsForPlaceholders(keys: readonly string[]): OnlineFormField[] {
  return keys.map((key) => ({ key, label: key, type: guessFieldType(key), required: true }));
}

export type OnlineFormValues = Record<string, string | boolean>;

/** The normalised value of one field, or its Spanish error. */
export function checkFieldValue(field: OnlineFormField, raw: unknown): { value: string | boolean } | { error: string } {
  if (field.type === 'checkbox') {
    const checked = raw === true || raw === 'true';
    if (field.required && !checked) return { error: MANDATORY_MESSAGE };
    return { value: checked };
  }
  if (raw !== undefined && raw !== null && typeof raw !== 'string' && typeof raw !== 'number') return { error: 'El valor no es válido' };
  const value = raw === undefined || raw === null ? '' : String(raw).trim();
  if (isEmptyValue(value)) return field.required ? { error: MANDATORY_MESSAGE } : { value: '' };
  const max = field.type === 'textarea' ? MAX_TEXTAREA_VALUE : MAX_FIELD_VALUE;
  if (value.length > max) return { error: `Como mucho ${max.toLocaleString('es-ES')} caracteres` };
  if (field.type === 'select') return (field.options ?? []).includes(value) ? { value } : { error: 'Elige una de las opciones' };
  const rule = TYPE_RULES[field.type];
  if (rule !== undefined) {
    const result = validate(value, rule);
    if (!result.valid) return { error: result.message ?? 'El formato introducido no es válido' };
  }
  if (field.type === 'date') {
    const date = parseCalendarDate(value);
    if (date === null) return { error: 'Introduce una fecha válida' };
    const pad = (part: number) => String(part).padStart(2, '0');
    // Stored as yyyy-mm-dd; documents show dd/mm/yyyy (formatFieldValue).
    return { value: `${date.year}-${pad(date.month)}-${pad(date.day)}` };
  }
  if (['nif', 'cif', 'naf', 'iban', 'ccc'].includes(field.type)) return { value: value.replace(/[\s-]/g, '').toUpperCase() };
  return { value };
}

/** Every field checked: the normalised values of the form's fields only, and the errors by key. */
export function checkOnlineFormValues(fields: readonly OnlineFormField[], raw: Readonly<Record<string, unknown>>): { values: OnlineFormValues; errors: Record<string, string> } {
  const values: OnlineFormValues = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const result = checkFieldValue(field, Object.hasOwn(raw, field.key) ? raw[field.key] : undefined);
    if ('error' in result) errors[field.key] = result.error;
    else values[field.key] = result.value;
  }
  return { values, errors };
}

/** A stored value as a document shows it: dates dd/mm/yyyy, checkboxes Sí/No. */
export function formatFieldValue(field: Pick<OnlineFormField, 'type'>, value: string | boolean | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (field.type === 'date') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (match) return `${match[3]}/${match[2]}/${match[1]}`;
  }
  return value;
}

/** The values a template is filled with for a submission: each field formatted for reading. */
export function documentValuesOf(fields: readonly OnlineFormField[], values: OnlineFormValues): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field.key, formatFieldValue(field, values[field.key])]));
}
