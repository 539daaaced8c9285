import { useId } from 'react';
import type { ClientCompany, FormField } from '#shared/api/altas.ts';
import { normalizeFieldValue } from '#shared/forms/index.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { ComboBox, SEARCHABLE_OPTIONS_THRESHOLD } from '../../ui/ComboBox.tsx';
import { isChoiceField } from '#shared/altas/form-definition.ts';
import { fieldOptions } from './altasModel.ts';
import { submissionFileUrl } from './altasTransfer.ts';

export interface FieldInputProps {
  fieldKey: string;
  field: FormField;
  /** Every value of the form: a dependent dropdown reads the one it depends on. */
  values: Record<string, unknown>;
  onChange: (key: string, value: string | boolean) => void;
  error?: string | null;
  /** The company whose CCCs a CCC field offers. */
  company?: ClientCompany;
  /** The title of the field a dependent dropdown waits for. */
  parentTitle?: string;
  /** The saved registration, so its files can be downloaded. */
  submissionId?: string;
  disabled?: boolean;
}

function isStoredFile(value: unknown): value is { fileId: string; name: string } {
  return typeof value === 'object' && value !== null && 'fileId' in value && 'name' in value;
}

/** One form-to-flow field typed by its fieldType, with its asterisk when required and its error under it. */
export function FieldInput({ fieldKey, field, values, onChange, error, company, parentTitle, submissionId, disabled = false }: FieldInputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const value = values[fieldKey];
  const invalid = error ? true : undefined;
  const describedBy = error ? errorId : undefined;
  const label = (
    <>
      {field.title}
      {field.required && <span className="altas-field__required" aria-hidden="true"> *</span>}
    </>
  );
  const errorLine = <p className="altas-field__error"><span id={errorId}>{error}</span></p>;

  if (field.fieldType === 'checkbox') {
    return (
      <div className="altas-field altas-field--checkbox">
        <label>
          <input
            type="checkbox"
            checked={normalizeFieldValue('checkbox', value) === true}
            disabled={disabled}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            aria-required={field.required || undefined}
            onChange={(event) => onChange(fieldKey, event.target.checked)}
          />
          <span>{label}</span>
        </label>
        {errorLine}
      </div>
    );
  }

  if (field.fieldType === 'file') {
    // Files come from the company's form; here they are only downloaded.
    return (
      <div className="altas-field">
        <span className="altas-field__label">{label}</span>
        {isStoredFile(value) && submissionId ? (
          <a href={submissionFileUrl(submissionId, value.fileId)} target="_blank" rel="noreferrer" download={value.name}>{value.name}</a>
        ) : (
          <span className="ui-muted">{text.submission.noFile}</span>
        )}
      </div>
    );
  }

  if (isChoiceField(field)) {
    const options = fieldOptions(field, values, company);
    const waiting = field.dependentKey !== undefined && options.length === 0;
    const current = typeof value === 'string' ? value : '';
    // Spec §5: a choice among more than 5 options is searchable.
    if (options.length > SEARCHABLE_OPTIONS_THRESHOLD) {
      return (
        <div className="altas-field">
          <ComboBox
            label={field.required ? `${field.title} *` : field.title}
            options={options.map((option) => ({ value: option.key, label: option.text }))}
            value={current === '' ? null : current}
            onChange={(chosen) => onChange(fieldKey, chosen ?? '')}
            placeholder={text.submission.choose}
            disabled={disabled}
            error={error ?? undefined}
            required={field.required}
          />
        </div>
      );
    }
    return (
      <div className="altas-field">
        <label htmlFor={id} className="altas-field__label">{label}</label>
        <select
          id={id}
          className="ui-input"
          value={current}
          disabled={disabled || waiting}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          aria-required={field.required || undefined}
          onChange={(event) => onChange(fieldKey, event.target.value)}
        >
          <option value="">{waiting && parentTitle ? text.submission.dependsOn(parentTitle) : text.submission.choose}</option>
          {options.map((option) => <option key={option.key} value={option.key}>{option.text}</option>)}
          {current !== '' && !options.some((option) => option.key === current) && <option value={current}>{current}</option>}
        </select>
        {errorLine}
      </div>
    );
  }

  const shown = field.fieldType === 'date' ? normalizeFieldValue('date', value) : value;
  return (
    <div className="altas-field">
      <label htmlFor={id} className="altas-field__label">{label}</label>
      <input
        id={id}
        className="ui-input"
        type={field.fieldType === 'date' ? 'date' : 'text'}
        value={typeof shown === 'string' ? shown : ''}
        disabled={disabled}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        aria-required={field.required || undefined}
        onChange={(event) => onChange(fieldKey, event.target.value)}
      />
      {errorLine}
    </div>
  );
}
