import { fieldsForPlaceholders } from '#shared/documents/form-fields.ts';
import type { OnlineFieldType, OnlineFormField } from '#shared/documents/form-fields.ts';
import type { TemplateSummary } from '#shared/api/documents.ts';
import type { FormBody, OnlineForm } from '#shared/api/onlineforms.ts';
import { formsTab as text } from '../../../i18n/es-onlineforms.ts';

/**
 * The advisor's form editor without React: a draft made from a template's placeholders, the field
 * list's edits (type, required, help, options, order), what is missing before it can be saved, and
 * the body the server takes (shared formBodySchema).
 */

/** A field as edited: a select's options as the text area shows them, one per line. */
export interface DraftField extends Omit<OnlineFormField, 'options' | 'help'> {
  help: string;
  optionsText: string;
}

export interface FormDraft {
  templateId: string;
  title: string;
  description: string;
  fields: DraftField[];
  requireSignature: boolean;
}

export type DraftErrors = Record<string, string>;

const toDraftField = (field: OnlineFormField): DraftField => ({
  key: field.key, label: field.label, type: field.type, required: field.required, help: field.help ?? '', optionsText: (field.options ?? []).join('\n'),
});

/** The body of a new form from a template: its placeholders as required fields, the signature if it has a place for one. */
export function newFormBody(template: Pick<TemplateSummary, 'id' | 'name' | 'placeholders' | 'takesSignature'>): FormBody {
  return { templateId: template.id, title: template.name, description: '', fields: fieldsForPlaceholders(template.placeholders), requireSignature: template.takesSignature };
}

export function draftOf(form: Pick<OnlineForm, 'templateId' | 'title' | 'description' | 'fields' | 'requireSignature'>): FormDraft {
  return { templateId: form.templateId ?? '', title: form.title, description: form.description, fields: form.fields.map(toDraftField), requireSignature: form.requireSignature };
}

export const optionsOf = (optionsText: string) => optionsText.split('\n').map((line) => line.trim()).filter((line) => line !== '');

export function updateField(fields: readonly DraftField[], index: number, patch: Partial<DraftField>): DraftField[] {
  return fields.map((field, at) => (at === index ? { ...field, ...patch } : field));
}

/** The field one place up (-1) or down (+1); at either end nothing moves. */
export function moveField(fields: readonly DraftField[], index: number, delta: -1 | 1): DraftField[] {
  const target = index + delta;
  if (index < 0 || index >= fields.length || target < 0 || target >= fields.length) return [...fields];
  const next = [...fields];
  const [moved] = next.splice(index, 1);
  if (moved) next.splice(target, 0, moved);
  return next;
}

export const removeField = (fields: readonly DraftField[], index: number): DraftField[] => fields.filter((_, at) => at !== index);

/** The template's placeholders the form no longer asks, in the template's order. */
export function missingPlaceholders(placeholders: readonly string[], fields: readonly DraftField[]): string[] {
  const asked = new Set(fields.map((field) => field.key));
  return placeholders.filter((key) => !asked.has(key));
}

/** A placeholder asked again, at the end, typed as a new form would type it. */
export function addPlaceholder(fields: readonly DraftField[], key: string): DraftField[] {
  const [field] = fieldsForPlaceholders([key]);
  return field ? [...fields, toDraftField(field)] : [...fields];
}

/** What the editor marks before saving: 'title', 'fields', 'fields.<i>.label', 'fields.<i>.options'. */
export function draftErrors(draft: FormDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (draft.title.trim() === '') errors.title = text.editor.titleRequired;
  if (draft.fields.length === 0) errors.fields = text.editor.noFields;
  draft.fields.forEach((field, index) => {
    if (field.label.trim() === '') errors[`fields.${index}.label`] = text.editor.labelRequired;
    if (field.type === 'select' && optionsOf(field.optionsText).length === 0) errors[`fields.${index}.options`] = text.editor.optionsRequired;
  });
  return errors;
}

/** The draft as the server takes it: trimmed, help only when written, options only for a select. */
export function bodyOf(draft: FormDraft): FormBody {
  return {
    templateId: draft.templateId,
    title: draft.title.trim(),
    description: draft.description.trim(),
    requireSignature: draft.requireSignature,
    fields: draft.fields.map((field): OnlineFormField => ({
      key: field.key,
      label: field.label.trim(),
      type: field.type as OnlineFieldType,
      required: field.required,
      ...(field.help.trim() === '' ? {} : { help: field.help.trim() }),
      ...(field.type === 'select' ? { options: [...new Set(optionsOf(field.optionsText))] } : {}),
    })),
  };
}

/** Whether the draft says something else than the saved form (so 'Guardar' has something to save). */
export const draftChanged = (draft: FormDraft, saved: FormDraft) => JSON.stringify(bodyOf(draft)) !== JSON.stringify(bodyOf(saved));

/** A server issue path ('fields.2.label') kept as is; 'fields.2.options.0' marks the options box. */
export function placeBodyIssues(issues: readonly { path: string; message: string }[]): DraftErrors {
  const errors: DraftErrors = {};
  for (const issue of issues) {
    const match = /^fields\.(\d+)\.(\w+)/.exec(issue.path);
    const key = match ? `fields.${match[1]}.${match[2]}` : issue.path.split('.')[0] ?? issue.path;
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Splits what the advisor typed in the recipients box: commas, semicolons, spaces or lines. */
export const recipientsOf = (raw: string) => [...new Set(raw.split(/[\s,;]+/).map((part) => part.trim()).filter((part) => part !== ''))];

/** Rough shape check before the server's: something@something.tld. */
export const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
