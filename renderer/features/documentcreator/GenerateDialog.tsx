import { useId, useMemo, useState } from 'react';
import { checkFieldValue, checkOnlineFormValues, documentValuesOf, fieldsForPlaceholders } from '#shared/documents/form-fields.ts';
import type { OnlineFormField } from '#shared/documents/form-fields.ts';
import type { HttpError } from '../../api/baseApi.ts';
import { useGenerateDocumentMutation } from '../../api/documents.ts';
import { useToast } from '../../app/hooks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { Button, TextField } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';

export interface GenerateDialogProps {
  template: { id: string; name: string; placeholders: readonly string[] };
  onClose: () => void;
  /** The document was asked for: it is being made (the Documentos tab shows it). */
  onGenerated: () => void;
}

/** The fields the dialog asks: one per placeholder, typed by its name; none required (an empty IF key drops its text). */
export function generateFields(placeholders: readonly string[]): OnlineFormField[] {
  return fieldsForPlaceholders(placeholders).map((field) => ({ ...field, required: false }));
}

const INPUT_TYPES: Partial<Record<OnlineFormField['type'], string>> = { date: 'date', email: 'email', tel: 'tel' };

/** 'Generar documento': one input per field (checked as it is typed), the file's name and the client company. */
export function GenerateDialog({ template, onClose, onGenerated }: GenerateDialogProps) {
  const toast = useToast();
  const ids = useId();
  const fields = useMemo(() => generateFields(template.placeholders), [template.placeholders]);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [generate, generating] = useGenerateDocumentMutation();

  const errorOf = (field: OnlineFormField): string | undefined => {
    if (serverErrors[field.key]) return serverErrors[field.key];
    if (!touched[field.key]) return undefined;
    const result = checkFieldValue(field, values[field.key]);
    return 'error' in result ? result.error : undefined;
  };
  const change = (key: string, value: string | boolean) => {
    setValues((previous) => ({ ...previous, [key]: value }));
    setTouched((previous) => ({ ...previous, [key]: true }));
    setServerErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  const submit = async () => {
    const checked = checkOnlineFormValues(fields, values);
    setTouched(Object.fromEntries(fields.map((field) => [field.key, true])));
    if (Object.keys(checked.errors).length > 0) {
      toast.error(text.generate.invalid);
      document.querySelector<HTMLElement>('.dc-generate [aria-invalid="true"]')?.focus();
      return;
    }
    try {
      await generate({
        templateId: template.id,
        name: name.trim(),
        ...(company.trim() === '' ? {} : { company: company.trim() }),
        values: documentValuesOf(fields, checked.values),
      }).unwrap();
      toast.success(text.generate.started);
      onGenerated();
    } catch (error) {
      const failure = error as HttpError;
      const byField: Record<string, string> = {};
      for (const issue of failure.data?.issues ?? []) {
        const key = issue.path.startsWith('values.') ? issue.path.slice('values.'.length) : issue.path;
        byField[key] ??= issue.message;
      }
      setServerErrors(byField);
      toast.error(failure.message || text.generate.failed);
    }
  };

  return (
    <Modal
      open
      size="medium"
      title={text.generate.title(template.name)}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.cancel}</Button>
          <Button loading={generating.isLoading} onClick={() => void submit()}>{text.generate.submit}</Button>
        </>
      }
    >
      <form
        className="dc-generate"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="ui-muted">{fields.length === 0 ? text.generate.noFields : text.generate.intro}</p>
        {fields.map((field, index) => {
          const error = errorOf(field);
          const id = `${ids}-${index}`;
          const value = values[field.key];
          if (field.type === 'textarea') {
            return (
              <div key={field.key} className={`app-field${error ? ' app-field--invalid' : ''}`}>
                <label htmlFor={id}>{field.label}</label>
                <textarea id={id} className="ui-input" rows={3} value={typeof value === 'string' ? value : ''} aria-invalid={error ? true : undefined} aria-describedby={`${id}-error`} onChange={(event) => change(field.key, event.target.value)} />
                <p className="app-field__error"><span id={`${id}-error`}>{error}</span></p>
              </div>
            );
          }
          return (
            <TextField
              key={field.key}
              label={field.label}
              type={INPUT_TYPES[field.type] ?? 'text'}
              inputMode={field.type === 'number' ? 'decimal' : undefined}
              value={typeof value === 'string' ? value : ''}
              error={error}
              onValueChange={(next) => change(field.key, next)}
            />
          );
        })}
        <hr className="dc-rule" />
        <TextField label={text.generate.fileName} value={name} maxLength={120} placeholder={template.name} onValueChange={setName} />
        <p className="ui-muted dc-small dc-hint">{text.generate.fileNameHint}</p>
        <TextField label={text.generate.company} value={company} maxLength={200} onValueChange={setCompany} />
        <p className="ui-muted dc-small dc-hint">{text.generate.companyHint}</p>
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </form>
    </Modal>
  );
}
