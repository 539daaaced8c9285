import { useId } from 'react';
import type { Ref, TextareaHTMLAttributes } from 'react';

export interface MessageFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A labelled textarea (spread react-hook-form's register into it); its hint and error are tied to it. */
export function MessageField({ label, error, hint, ref, ...textarea }: MessageFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`app-field support-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hint && <p id={`${id}-hint`} className="ui-muted support-field__hint">{hint}</p>}
      <textarea {...textarea} ref={ref} id={id} rows={textarea.rows ?? 6} aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined} />
      <p className="app-field__error"><span id={`${id}-error`}>{error}</span></p>
    </div>
  );
}
