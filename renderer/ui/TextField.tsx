import { useId } from 'react';
import type { InputHTMLAttributes } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  error?: string;
  onValueChange: (value: string) => void;
}

/** A labelled input whose error is announced and tied to it with aria-describedby. */
export function TextField({ label, value, error, onValueChange, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`app-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className="app-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
