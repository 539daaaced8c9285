import { useId } from 'react';
import { isSearchable } from '#shared/forms/index.ts';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { form as text } from '../../i18n/es-form.ts';
import type { Option } from './formModel.ts';

export interface ChoiceFieldProps {
  label: string;
  /** null while the choice waits for another field (waitingHint says which). */
  options: readonly Option[] | null;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
  required?: boolean;
  waitingHint?: string;
  /** Shown instead of an empty list (a company without CCC). */
  emptyHint?: string;
  onBlur?: () => void;
}

/**
 * One choice (spec §5): a plain select up to 5 options, a searchable ComboBox above that. Its error
 * is tied to it (aria-invalid, aria-describedby) and its line is always there, so it never pushes
 * the fields below when it appears.
 */
export function ChoiceField({ label, options, value, onChange, error, required, waitingHint, emptyHint, onBlur }: ChoiceFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const hint = options === null ? waitingHint : options.length === 0 ? emptyHint : undefined;

  if (options !== null && isSearchable(options)) {
    return (
      <div className="form-field" onBlur={onBlur}>
        <ComboBox
          label={label}
          options={options.map((option) => ({ value: option.key, label: option.text }))}
          value={value}
          onChange={onChange}
          placeholder={text.fill.choose}
          error={error}
          required={required}
        />
      </div>
    );
  }

  const describedBy = [error ? errorId : undefined, hint ? hintId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`app-field form-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value ?? ''}
        disabled={options === null || options.length === 0}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
        onBlur={onBlur}
      >
        <option value="">{text.fill.choose}</option>
        {(options ?? []).map((option) => (
          <option key={option.key} value={option.key}>{option.text}</option>
        ))}
      </select>
      {hint && <p id={hintId} className="form-field__hint">{hint}</p>}
      <p className="app-field__error"><span id={errorId}>{error}</span></p>
    </div>
  );
}
