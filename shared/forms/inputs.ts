import { FORM_SLUG_PATTERN } from '../api/altas.ts';
import { MANDATORY_MESSAGE } from '../validation/validate.ts';

/** Small input rules of spec §5 and §9. */

/** Selectors with more than this many items get a search box. */
export const SEARCHABLE_THRESHOLD = 5;

export function isSearchable(items: readonly unknown[] | number): boolean {
  return (typeof items === 'number' ? items : items.length) > SEARCHABLE_THRESHOLD;
}

export const DEFAULT_PHONE_PREFIX = '+34';

export interface PhoneParts {
  prefix: string;
  number: string;
}

/**
 * Splits a stored phone into prefix and number for the phone input. Spanish prefixes (+34, 0034)
 * are recognised; another '+NN' is taken only when a space follows it, as codes vary in length.
 * Without a prefix the default +34 applies.
 */
export function splitPhone(value: string): PhoneParts {
  const text = value.trim();
  const spanish = /^(?:\+34|0034)\s*(.*)$/.exec(text);
  if (spanish) return { prefix: DEFAULT_PHONE_PREFIX, number: (spanish[1] ?? '').trim() };
  const other = /^(\+\d{1,4})\s+(.*)$/.exec(text);
  if (other) return { prefix: other[1] ?? DEFAULT_PHONE_PREFIX, number: (other[2] ?? '').trim() };
  return { prefix: DEFAULT_PHONE_PREFIX, number: text };
}

export function joinPhone({ prefix, number }: PhoneParts): string {
  const digits = number.trim();
  return digits === '' ? '' : `${prefix.trim() || DEFAULT_PHONE_PREFIX} ${digits}`;
}

/** Form config URLs are stored under this prefix (spec §5). */
export const FORM_FLOWS_URL_PREFIX = '/form/flows/';

/** The stored URL for what the user typed: with or without the prefix, slashes trimmed. */
export function toFormConfigUrl(input: string): string {
  return FORM_FLOWS_URL_PREFIX + formConfigSlug(input);
}

/** The part of a form config URL the user edits. */
export function formConfigSlug(url: string): string {
  const trimmed = url.trim().replace(/^\/+/, '/');
  const withoutPrefix = trimmed.startsWith(FORM_FLOWS_URL_PREFIX) ? trimmed.slice(FORM_FLOWS_URL_PREFIX.length) : trimmed;
  return withoutPrefix.replace(/^\/+|\/+$/g, '');
}

export interface FormConfigInput {
  title: string;
  url: string;
  logo?: unknown;
}

/** The rule of a form URL's own part (FORM_SLUG_PATTERN), said in full under the field and in the server's 400. */
export const FORM_URL_FORMAT_MESSAGE = 'La URL solo puede llevar letras minúsculas sin tildes ni eñes, números y guiones (no al principio ni al final), hasta 80 caracteres';

/** Title and URL are required, the URL's own part by FORM_SLUG_PATTERN; the logo is optional. */
export function validateFormConfig(input: FormConfigInput): Partial<Record<'title' | 'url', string>> {
  const errors: Partial<Record<'title' | 'url', string>> = {};
  if (input.title.trim() === '') errors.title = MANDATORY_MESSAGE;
  const slug = formConfigSlug(input.url);
  if (slug === '') errors.url = MANDATORY_MESSAGE;
  else if (!FORM_SLUG_PATTERN.test(slug)) errors.url = FORM_URL_FORMAT_MESSAGE;
  return errors;
}

/** Spec §5: script execution arguments must be an object (not an array, not null). */
export function isArgumentsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
