import type { HTMLInputTypeAttribute } from 'react';
import { checkFieldValue, checkOnlineFormValues } from '#shared/documents/form-fields.ts';
import type { OnlineFieldType, OnlineFormField, OnlineFormValues } from '#shared/documents/form-fields.ts';
import { SIGNATURE_REQUIRED_MESSAGE } from '#shared/api/onlineforms.ts';
import type { PublicSubmissionBody } from '#shared/api/onlineforms.ts';
import type { FieldIssue } from '#shared/api/errors.ts';
import { MANDATORY_MESSAGE } from '#shared/validation/validate.ts';

/**
 * The public page's form, without React: what each field type asks the phone's keyboard for, the
 * client-side check (the shared checkFieldValue the server runs again), and the server's per-field
 * errors placed under their fields.
 */

/** Keys of the two inputs that are not form fields; a field's key never has square brackets. */
export const SIGNER_KEY = '[signerName]';
export const SIGNATURE_KEY = '[signature]';

export type OnlineFormErrors = Record<string, string>;

export interface InputHints {
  type: HTMLInputTypeAttribute;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'tel';
  autoComplete: string;
  autoCapitalize?: 'off' | 'characters' | 'sentences';
  spellCheck?: boolean;
}

/** The input a single-line field draws: the right keyboard on a phone and no autocorrect on codes. */
export function inputHints(type: Exclude<OnlineFieldType, 'textarea' | 'select' | 'checkbox'>): InputHints {
  switch (type) {
    case 'date': return { type: 'date', autoComplete: 'off' };
    case 'email': return { type: 'email', inputMode: 'email', autoComplete: 'email', autoCapitalize: 'off', spellCheck: false };
    case 'tel': return { type: 'tel', inputMode: 'tel', autoComplete: 'tel' };
    case 'number': return { type: 'text', inputMode: 'decimal', autoComplete: 'off' };
    case 'naf':
    case 'ccc': return { type: 'text', inputMode: 'numeric', autoComplete: 'off', spellCheck: false };
    case 'nif':
    case 'cif':
    case 'iban': return { type: 'text', autoComplete: 'off', autoCapitalize: 'characters', spellCheck: false };
    case 'text': return { type: 'text', autoComplete: 'off' };
  }
}

/** Spec §5: required fields show an asterisk. */
export const labelOf = (field: Pick<OnlineFormField, 'label' | 'required'>) => (field.required ? `${field.label} *` : field.label);

export function initialOnlineValues(fields: readonly OnlineFormField[]): OnlineFormValues {
  return Object.fromEntries(fields.map((field) => [field.key, field.type === 'checkbox' ? false : '']));
}

/** The field's error now, or null when its value is fine. */
export function fieldError(field: OnlineFormField, value: string | boolean | undefined): string | null {
  const result = checkFieldValue(field, value);
  return 'error' in result ? result.error : null;
}

/** On leaving a field: an untouched empty field says nothing yet ('obligatorio' waits for the send). */
export function blurError(field: OnlineFormField, value: string | boolean | undefined): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  return fieldError(field, value);
}

export interface SignatureState {
  requireSignature: boolean;
  signerName: string;
  /** The PNG data URL, or null while the pad is empty. */
  signature: string | null;
}

/** Every problem before sending, by key (form fields, then the signer's name and the signature). */
export function formErrorsOf(fields: readonly OnlineFormField[], values: OnlineFormValues, signing: SignatureState): OnlineFormErrors {
  const { errors } = checkOnlineFormValues(fields, values);
  if (signing.requireSignature) {
    if (signing.signerName.trim() === '') errors[SIGNER_KEY] = MANDATORY_MESSAGE;
    if (signing.signature === null) errors[SIGNATURE_KEY] = SIGNATURE_REQUIRED_MESSAGE;
  }
  return errors;
}

/** What the page sends: the checked values of the form's fields, and the signature when it asks for one. */
export function submissionBody(fields: readonly OnlineFormField[], values: OnlineFormValues, signing: SignatureState): PublicSubmissionBody {
  const checked = checkOnlineFormValues(fields, values).values;
  if (!signing.requireSignature) return { values: checked };
  const name = signing.signerName.trim();
  return { values: checked, ...(name === '' ? {} : { signerName: name }), ...(signing.signature === null ? {} : { signature: signing.signature }) };
}

/**
 * The server's issues by key: 'values.<key>' under its field, 'signerName' and 'signature' under
 * theirs; anything else (or a key the page does not show) goes to the banner.
 */
export function placeServerIssues(issues: readonly FieldIssue[], fields: readonly OnlineFormField[]): { errors: OnlineFormErrors; unplaced: string[] } {
  const keys = new Set(fields.map((field) => field.key));
  const errors: OnlineFormErrors = {};
  const unplaced: string[] = [];
  for (const issue of issues) {
    let key: string | undefined;
    if (issue.path.startsWith('values.')) {
      const rest = issue.path.slice('values.'.length);
      if (keys.has(rest)) key = rest;
    } else if (keys.has(issue.path)) key = issue.path;
    else if (issue.path === 'signerName') key = SIGNER_KEY;
    else if (issue.path === 'signature') key = SIGNATURE_KEY;
    if (key !== undefined && errors[key] === undefined) errors[key] = issue.message;
    else unplaced.push(issue.message);
  }
  return { errors, unplaced };
}

/** The order errors are met on the page: the fields as listed, then the signer's name, then the pad. */
export function firstErrorKey(fields: readonly OnlineFormField[], errors: OnlineFormErrors): string | undefined {
  return [...fields.map((field) => field.key), SIGNER_KEY, SIGNATURE_KEY].find((key) => errors[key] !== undefined);
}
