import { ALTAS_FILE_EXTENSIONS, ALTAS_FILE_MAX_BYTES, ALTAS_FILE_TYPES } from '#shared/api/altas.ts';
import type { FieldsValues, FormField, FormPage, PublicForm, SubmissionFile } from '#shared/api/altas.ts';
import type { FieldIssue } from '#shared/api/errors.ts';
import { ALTA_RULE_MESSAGES, altaRuleErrors } from '#shared/altas/alta-rules.ts';
import { isChoiceField } from '#shared/altas/form-definition.ts';
import { workerName as fullName } from '#shared/altas/records.ts';
import { formatBytes } from '#shared/files/index.ts';
import { formFieldError, normalizeFieldValue } from '#shared/forms/index.ts';
import { DOCUMENT_TYPE_CODES, MANDATORY_MESSAGE, NIE_LETTER_MESSAGE, NIF_LETTER_MESSAGE, isEmptyValue, ruleMessage } from '#shared/validation/index.ts';
import { form as text } from '../../i18n/es-form.ts';

/** The company's form as plain rules: which fields show where, their options, errors and the values sent. */

export type FormSession = NonNullable<PublicForm['session']>;
export type FormCompany = FormSession['companies'][number];
export type FieldValue = string | boolean | SubmissionFile | null;
export type FormValues = Record<string, FieldValue>;
export type FormErrors = Record<string, string>;
export interface Option {
  key: string;
  text: string;
}

/** Error keys of the two choices that are not definition fields. */
export const COMPANY_KEY = 'companyId';
export const PROFILE_KEY = 'groupKey';
/** Spec §3 Registration keys: the document number is checked against the chosen document type. */
export const DOCUMENT_TYPE_KEY = 'Tipo de documento';
export const DOCUMENT_NUMBER_KEY = 'NIF';

export interface PageView {
  title: string;
  keys: string[];
}

/**
 * The pages with only the fields the definition has (a page left empty is not shown). A form
 * without pages shows all its fields on one, so the company is never given an empty form.
 */
export function visiblePages(pages: readonly FormPage[], fields: Readonly<Record<string, FormField>>): PageView[] {
  if (pages.length === 0) return Object.keys(fields).length === 0 ? [] : [{ title: text.fill.onePage, keys: Object.keys(fields) }];
  return pages
    .map((page) => ({ title: page.title, keys: page.fields.filter((key) => fields[key] !== undefined) }))
    .filter((page) => page.keys.length > 0);
}

export const pageKeys = (pages: readonly PageView[]): string[] => pages.flatMap((page) => page.keys);

export const isFile = (value: FieldValue | undefined): value is SubmissionFile => typeof value === 'object' && value !== null;


/**
 * The options a choice offers now, or null while it waits for the field it depends on. CCC options
 * come from the chosen company (validValuesFromExtraFields 'CCC').
 */
export function optionsFor(field: FormField, values: FormValues, company: FormCompany | undefined): Option[] | null {
  const extra = field.validValuesFromExtraFields?.field;
  if (extra !== undefined) {
    if (extra !== 'CCC') return [];
    return (company?.ccc ?? []).map((row) => ({ key: row.key, text: row.label === '' ? row.key : `${row.label} · ${row.key}` }));
  }
  if (field.dependentKey !== undefined && field.dependentOptions !== undefined) {
    const parent = values[field.dependentKey];
    if (typeof parent !== 'string' || parent === '') return null;
    return field.dependentOptions[parent] ?? [];
  }
  return field.validValues ?? [];
}

/** The validator the document number takes for a document type: by code (1, 6, 2) or by its words. */
export function documentRule(documentType: FieldValue | undefined, options: readonly Option[] = []): string | undefined {
  if (typeof documentType !== 'string' || documentType === '') return undefined;
  const label = options.find((option) => option.key === documentType)?.text ?? '';
  const words = `${documentType} ${label}`.toUpperCase();
  if (documentType === String(DOCUMENT_TYPE_CODES.NIE) || /\bN\.?I\.?E\b/.test(words)) return 'nie';
  if (documentType === String(DOCUMENT_TYPE_CODES.PASSPORT) || /PASAPORTE|PASSPORT/.test(words)) return 'passport';
  if (documentType === String(DOCUMENT_TYPE_CODES.DNI) || /\bD\.?N\.?I\b|\bN\.?I\.?F\b/.test(words)) return 'nif';
  return undefined;
}

/** The field as it is checked now: the document number follows the chosen document type. */
export function effectiveField(key: string, field: FormField, values: FormValues, fields: Readonly<Record<string, FormField>>): FormField {
  if (key !== DOCUMENT_NUMBER_KEY || field.fieldType !== 'text') return field;
  const typeField = fields[DOCUMENT_TYPE_KEY];
  const rule = documentRule(values[DOCUMENT_TYPE_KEY], typeField?.validValues ?? []);
  return rule === undefined ? field : { ...field, validate: rule };
}

/** The messages a text field can show, so its error line keeps room for them before they appear. */
export function reservedMessages(field: FormField, key = ''): string[] {
  const messages = field.required === true ? [MANDATORY_MESSAGE] : [];
  const format = field.fieldType === 'date' ? ruleMessage('date') : field.validate ? ruleMessage(field.validate) : undefined;
  if (format !== undefined) messages.push(format);
  if (key === DOCUMENT_NUMBER_KEY) messages.push(NIF_LETTER_MESSAGE, NIE_LETTER_MESSAGE);
  messages.push(...(ALTA_RULE_MESSAGES[key] ?? []));
  return messages;
}

/**
 * Spec §5: text and dates by their format when filled, choices, files and checkboxes for presence;
 * then the rules across fields (issue 44: 16 or more on the fecha de alta, the contract not starting
 * before it), the same the server applies (shared/altas/alta-rules.ts).
 */
export function fieldErrorFor(key: string, field: FormField, values: FormValues, fields: Readonly<Record<string, FormField>>): string | null {
  const value = values[key] ?? null;
  if (isChoiceField(field)) return field.required === true && isEmptyValue(value) ? MANDATORY_MESSAGE : null;
  return formFieldError(effectiveField(key, field, values, fields), value) ?? ruleErrorFor(key, values, fields);
}

/** The rule across fields that this field's value breaks, or null (only among the fields the form has). */
function ruleErrorFor(key: string, values: FormValues, fields: Readonly<Record<string, FormField>>): string | null {
  const present = Object.fromEntries(Object.entries(values).filter(([name]) => fields[name] !== undefined));
  return altaRuleErrors(present)[key] ?? null;
}


/** The filled fields that break a rule across fields now: a blur on one of the dates shows them at once. */
export function ruleErrorKeys(values: FormValues, fields: Readonly<Record<string, FormField>>): string[] {
  const present = Object.fromEntries(Object.entries(values).filter(([name]) => fields[name] !== undefined));
  return Object.keys(altaRuleErrors(present)).filter((key) => !isEmptyValue(values[key] ?? null));
}

export interface FormChoices {
  companyId: string | null;
  groupKey: string | null;
}

/** Every error of the form, keyed by field (and by COMPANY_KEY / PROFILE_KEY for the two choices). */
export function formErrors(pages: readonly PageView[], fields: Readonly<Record<string, FormField>>, values: FormValues, choices: FormChoices): FormErrors {
  const errors: FormErrors = {};
  if (choices.companyId === null) errors[COMPANY_KEY] = MANDATORY_MESSAGE;
  if (choices.groupKey === null) errors[PROFILE_KEY] = MANDATORY_MESSAGE;
  for (const key of pageKeys(pages)) {
    const field = fields[key];
    const message = field === undefined ? null : fieldErrorFor(key, field, values, fields);
    if (message !== null) errors[key] = message;
  }
  return errors;
}

/** A fresh form: checkboxes unticked, everything else empty. */
export function initialValues(pages: readonly PageView[], fields: Readonly<Record<string, FormField>>): FormValues {
  return Object.fromEntries(pageKeys(pages).map((key) => [key, fields[key]?.fieldType === 'checkbox' ? false : null]));
}

/**
 * A change, with the choices that depended on the changed field emptied when their value is no
 * longer offered (a new 'Provincia' empties 'Municipio').
 */
export function withChange(fields: Readonly<Record<string, FormField>>, values: FormValues, key: string, value: FieldValue): FormValues {
  const next: FormValues = { ...values, [key]: value };
  const changed = new Set([key]);
  // Dependencies may chain (a depends on b depends on c): repeat until nothing more is emptied.
  for (let pass = 0; pass < Object.keys(fields).length && changed.size > 0; pass += 1) {
    const emptied = new Set<string>();
    for (const [childKey, field] of Object.entries(fields)) {
      if (field.dependentKey === undefined || !changed.has(field.dependentKey)) continue;
      const current = next[childKey];
      const offered = optionsFor(field, next, undefined) ?? [];
      if (typeof current === 'string' && current !== '' && !offered.some((option) => option.key === current)) {
        next[childKey] = null;
        emptied.add(childKey);
      }
    }
    changed.clear();
    for (const emptiedKey of emptied) changed.add(emptiedKey);
  }
  return next;
}

/** The values sent, exactly one per field on the pages: trimmed text, ISO dates, booleans, files, null when empty. */
export function submissionValues(pages: readonly PageView[], fields: Readonly<Record<string, FormField>>, values: FormValues): FieldsValues {
  const sent: FieldsValues = {};
  for (const key of pageKeys(pages)) {
    const field = fields[key];
    if (field === undefined) continue;
    const value = values[key] ?? null;
    if (field.fieldType === 'checkbox') sent[key] = value === true;
    else if (field.fieldType === 'file') sent[key] = isFile(value) ? value : null;
    else if (typeof value !== 'string' || value.trim() === '') sent[key] = null;
    else if (field.fieldType === 'date') sent[key] = String(normalizeFieldValue('date', value.trim()));
    else sent[key] = value.trim();
  }
  return sent;
}

/** 'María García López' for the confirmation, from the spec's name keys. */
export function workerName(values: FormValues): string {
  const name = fullName(values);
  return name === '' ? text.done.someone : name;
}

/**
 * The server's per-field messages placed on the fields ('fieldsValues.NIF' -> 'NIF'); the rest
 * come back as unplaced, to show above the button.
 */
export function placeIssues(issues: readonly FieldIssue[], knownKeys: readonly string[]): { errors: FormErrors; unplaced: string[] } {
  const known = new Set([...knownKeys, COMPANY_KEY, PROFILE_KEY]);
  const errors: FormErrors = {};
  const unplaced: string[] = [];
  for (const issue of issues) {
    const key = issue.path.startsWith('fieldsValues.') ? issue.path.slice('fieldsValues.'.length) : issue.path;
    if (known.has(key) && errors[key] === undefined) errors[key] = issue.message;
    else unplaced.push(issue.message);
  }
  return { errors, unplaced };
}

/**
 * Why a chosen file cannot be attached (too big, not an image or a PDF), or null when it can. The server
 * takes a file by its name's type and then its content (415 otherwise), so the name must say it too.
 */
export function fileProblem(file: { name: string; size: number; type: string }): string | null {
  const extension = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
  const typeAllowed = (ALTAS_FILE_EXTENSIONS as readonly string[]).includes(extension) && (file.type === '' || (ALTAS_FILE_TYPES as readonly string[]).includes(file.type));
  if (!typeAllowed) return text.file.wrongType;
  if (file.size > ALTAS_FILE_MAX_BYTES) return text.file.tooLarge(formatBytes(file.size), formatBytes(ALTAS_FILE_MAX_BYTES));
  return null;
}
