import { useId, useState } from 'react';
import type { FormField } from '#shared/api/altas.ts';
import { DEFAULT_PHONE_PREFIX, joinPhone, splitPhone } from '#shared/forms/index.ts';
import { TextField } from '../../ui/index.ts';
import { form as text } from '../../i18n/es-form.ts';
import { ChoiceField } from './ChoiceField.tsx';
import { FileField } from './FileField.tsx';
import { isChoiceField } from '#shared/altas/form-definition.ts';
import { isFile, reservedMessages } from './formModel.ts';
import type { FieldValue, Option } from './formModel.ts';

export interface FieldInputProps {
  fieldKey: string;
  /** The field as checked now (the document number carries the validator of the chosen document type). */
  field: FormField;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  onBlur: () => void;
  error?: string;
  /** A choice's options now; null while it waits for the field it depends on. */
  options: Option[] | null;
  /** The title of the field a dependent choice waits for. */
  parentTitle?: string;
  slug: string;
  onBusyChange: (busy: boolean) => void;
}

/** Spec §5: required fields show an asterisk. */
export const labelOf = (field: Pick<FormField, 'title' | 'required'>) => (field.required === true ? `${field.title} *` : field.title);

const asText = (value: FieldValue) => (typeof value === 'string' ? value : '');
const isPhone = (field: FormField) => field.fieldType === 'text' && (field.validate ?? '').split('|').some((name) => name.trim().toLowerCase() === 'tel');

/** One definition field drawn by its fieldType. */
export function FieldInput({ fieldKey, field, value, onChange, onBlur, error, options, parentTitle, slug, onBusyChange }: FieldInputProps) {
  const label = labelOf(field);
  const required = field.required === true;

  if (isChoiceField(field)) {
    return (
      <ChoiceField
        label={label}
        options={options}
        value={typeof value === 'string' && value !== '' ? value : null}
        onChange={onChange}
        onBlur={onBlur}
        error={error}
        required={required}
        waitingHint={parentTitle === undefined ? undefined : text.fill.dependsOn(parentTitle)}
        emptyHint={field.validValuesFromExtraFields?.field === 'CCC' ? text.fill.noCcc : undefined}
      />
    );
  }
  if (field.fieldType === 'checkbox') return <CheckboxField label={label} checked={value === true} onChange={onChange} error={error} required={required} />;
  if (field.fieldType === 'file') {
    return (
      <FileField label={label} slug={slug} value={isFile(value) ? value : null} onChange={onChange} onBusyChange={onBusyChange} error={error} required={required} />
    );
  }
  if (isPhone(field)) return <PhoneField label={label} value={asText(value)} onChange={onChange} onBlur={onBlur} error={error} required={required} fieldKey={fieldKey} />;
  return (
    <div className="form-field">
      <TextField
        label={label}
        type={field.fieldType === 'date' ? 'date' : 'text'}
        name={fieldKey}
        value={asText(value)}
        maxLength={500}
        autoComplete="off"
        aria-required={required || undefined}
        onValueChange={(next) => onChange(next)}
        onBlur={onBlur}
        error={error}
        reserve={reservedMessages(field, fieldKey)}
      />
    </div>
  );
}

interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  error?: string;
  required: boolean;
}

function CheckboxField({ label, checked, onChange, error, required }: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`app-field form-field${error ? ' app-field--invalid' : ''}`}>
      <label className="form-checkbox" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{label}</span>
      </label>
      <p className="app-field__error"><span id={errorId}>{error}</span></p>
    </div>
  );
}

interface PhoneFieldProps {
  fieldKey: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string;
  required: boolean;
}

/** Spec §5: a phone has its prefix apart, +34 unless the company types another. */
function PhoneField({ fieldKey, label, value, onChange, onBlur, error, required }: PhoneFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  // The prefix is kept apart: an empty number stores '' and must not forget a prefix already typed.
  const [prefix, setPrefix] = useState(() => splitPhone(value).prefix);
  const number = splitPhone(value).number;
  const change = (nextPrefix: string, nextNumber: string) => onChange(joinPhone({ prefix: nextPrefix, number: nextNumber }));
  return (
    <div className={`app-field form-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className="form-phone">
        <input
          aria-label={text.fill.phonePrefix(label)}
          className="form-phone__prefix"
          value={prefix}
          maxLength={5}
          inputMode="tel"
          onChange={(event) => setPrefix(event.target.value)}
          onBlur={() => {
            const cleaned = prefix.trim() === '' ? DEFAULT_PHONE_PREFIX : prefix.trim();
            setPrefix(cleaned);
            change(cleaned, number);
          }}
        />
        <input
          id={id}
          name={fieldKey}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={number}
          maxLength={20}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => change(prefix, event.target.value)}
          onBlur={onBlur}
        />
      </div>
      <p className="app-field__error"><span id={errorId}>{error}</span></p>
    </div>
  );
}
