import { useId } from 'react';
import type { ChangeEvent, InputHTMLAttributes, Ref } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  /** Controlled use (or a react-hook-form Controller's field.onChange): called with the new text. */
  onValueChange?: (value: string) => void;
  /** react-hook-form's register() ref, or a Controller's field.ref. */
  ref?: Ref<HTMLInputElement>;
  /** The errors this field can show before it is sent: the error line keeps room for the longest two. */
  reserve?: readonly string[];
}

/** The two longest messages: a field checks presence and one format, so two covers what blur can show. */
function longestTwo(messages: readonly string[]): [string | undefined, string | undefined] {
  const sorted = [...messages].sort((a, b) => b.length - a.length);
  return [sorted[0], sorted[1]];
}

/**
 * A labelled input whose error is announced and tied to it with aria-describedby. Spread
 * `form.field(name)` (register) into it, or give it value + onValueChange. The error line is
 * always there, empty when the value is fine and as tall as the messages it reserves room for, so
 * an error appearing or going away on blur never moves what is below it (a click on the submit
 * button lands where the pointer was).
 */
export function TextField({ label, error, onValueChange, onChange, ref, reserve = [], ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [reserveA, reserveB] = longestTwo(reserve);
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
      {/* The reserved messages are drawn invisibly by ui.css (::before/::after) in the same cell as
          the real one, so the line is as tall as the longest at any width and never grows on blur. */}
      <p className="app-field__error" data-reserve-a={reserveA} data-reserve-b={reserveB}>
        <span id={errorId}>{error}</span>
      </p>
    </div>
  );
}
