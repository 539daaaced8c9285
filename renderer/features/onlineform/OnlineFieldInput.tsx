import { useId } from 'react';
import type { OnlineFormField } from '#shared/documents/form-fields.ts';
import { MAX_FIELD_VALUE, MAX_TEXTAREA_VALUE } from '#shared/documents/form-fields.ts';
import { onlineForm as text } from '../../i18n/es-onlineforms.ts';
import { inputHints, labelOf } from './onlineFormModel.ts';

export interface OnlineFieldInputProps {
  field: OnlineFormField;
  value: string | boolean;
  onChange: (value: string | boolean) => void;
  onBlur: () => void;
  error?: string;
}

/** One field of the public form, drawn by its type: the control, its help line and its error line. */
export function OnlineFieldInput({ field, value, onChange, onBlur, error }: OnlineFieldInputProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [field.help ? helpId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.key,
    'aria-required': field.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    onBlur,
  };
  const textValue = typeof value === 'string' ? value : '';
  const help = field.help ? <p id={helpId} className="onlineform-field__help">{field.help}</p> : null;
  const errorLine = <p className="app-field__error"><span id={errorId}>{error}</span></p>;
  const className = `app-field onlineform-field onlineform-field--${field.type}${error ? ' app-field--invalid' : ''}`;

  if (field.type === 'checkbox') {
    return (
      <div className={className}>
        <label className="onlineform-checkbox" htmlFor={id}>
          <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />
          <span>{labelOf(field)}</span>
        </label>
        {help}
        {errorLine}
      </div>
    );
  }

  let control;
  if (field.type === 'textarea') {
    control = <textarea {...common} className="ui-input" rows={4} maxLength={MAX_TEXTAREA_VALUE} value={textValue} onChange={(event) => onChange(event.target.value)} />;
  } else if (field.type === 'select') {
    control = (
      <select {...common} className="ui-input" value={textValue} onChange={(event) => onChange(event.target.value)}>
        <option value="">{text.choose}</option>
        {(field.options ?? []).map((option) => <option key={option} value={option}>{option}</option>)}
      </select>
    );
  } else {
    const hints = inputHints(field.type);
    control = (
      <input
        {...common}
        className="ui-input"
        type={hints.type}
        inputMode={hints.inputMode}
        autoComplete={hints.autoComplete}
        autoCapitalize={hints.autoCapitalize}
        spellCheck={hints.spellCheck}
        maxLength={MAX_FIELD_VALUE}
        value={textValue}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <div className={className}>
      <label htmlFor={id}>{labelOf(field)}</label>
      {help}
      {control}
      {errorLine}
    </div>
  );
}
