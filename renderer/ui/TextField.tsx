import { useId } from 'react';
import type { ChangeEvent, InputHTMLAttributes, Ref } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  /** Controlled use (or a react-hook-form Controller's field.onChange): called with the new text. */
  onValueChange?: (value: string) => void;
  /** react-hook-form's register() ref, or a Controller's field.ref. */
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled input whose error is announced and tied to it with aria-describedby. Spread
 * `form.field(name)` (register) into it, or give it value + onValueChange. The error line is
 * always there, empty when the value is fine, so an error appearing or going away on blur never
 * moves what is below it (a click on the submit button lands where the pointer was).
 */
export function TextField({ label, error, onValueChange, onChange, ref, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    onChange?.(event);
    onValueChange?.(event.target.value);
  };
  return (
    <div className={`app-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        ref={ref}
        id={id}
        onChange={change}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <p id={errorId} className="app-field__error">
        {error}
      </p>
    </div>
  );
}
