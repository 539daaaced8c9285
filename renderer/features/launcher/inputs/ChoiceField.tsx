import { useId } from 'react';
import type { Ref } from 'react';
import { isSearchable } from '#shared/forms/index.ts';
import { ComboBox } from '../../../ui/ComboBox.tsx';
import type { FieldRule } from '../../../ui/forms.ts';
import { FieldMessage } from './FieldMessage.tsx';

export interface ChoiceOption {
  value: string;
  label: string;
  /** Shown but not choosable (its label says why). */
  disabled?: boolean;
}

export interface ChoiceFieldProps {
  label: string;
  options: readonly ChoiceOption[];
  /** '' when nothing is chosen. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** The text of the empty choice ('Elige una opción', 'Sin asignar'). */
  emptyLabel: string;
  /** The empty choice can be picked again once something is chosen ('Sin asignar'). */
  emptySelectable?: boolean;
  error?: string;
  rule?: FieldRule;
  help?: string;
  selectRef?: Ref<HTMLSelectElement>;
}

// React Aria keys must not be empty: the empty choice travels under this one.
const EMPTY_KEY = '__empty__';

/** A choice among options: a plain select, or a searchable ComboBox with more than 5 (spec §5). */
export function ChoiceField({ label, options, value, onChange, onBlur, emptyLabel, emptySelectable = false, error, rule = {}, help, selectRef }: ChoiceFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const required = rule.required === true;
  const shownLabel = required ? `${label} *` : label;

  if (isSearchable(options)) {
    const comboOptions = [...(emptySelectable ? [{ value: EMPTY_KEY, label: emptyLabel }] : []), ...options];
    return (
      <div className={`app-field launcher-choice${error ? ' app-field--invalid' : ''}`} onBlur={onBlur}>
        <ComboBox
          label={shownLabel}
          options={comboOptions}
          value={value === '' ? (emptySelectable ? EMPTY_KEY : null) : value}
          onChange={(chosen) => onChange(chosen === null || chosen === EMPTY_KEY ? '' : chosen)}
          placeholder={emptyLabel}
          description={help}
        />
        <FieldMessage id={errorId} error={error} rule={rule} />
      </div>
    );
  }

  return (
    <div className={`app-field launcher-choice${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{shownLabel}</label>
      <select
        id={id}
        ref={selectRef}
        className="ui-input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        <option value="" disabled={!emptySelectable}>{emptyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>{option.label}</option>
        ))}
      </select>
      {help && <p className="ui-muted launcher-input__help">{help}</p>}
      <FieldMessage id={errorId} error={error} rule={rule} />
    </div>
  );
}
