import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { FieldMessage } from './FieldMessage.tsx';

/**
 * An input filled by asking outside the page (the certificate picker, the system's file dialog): its
 * ids, rule and error, and the question being asked (busy) or the last one's failure.
 */
export function usePicker(input: FlowInputDefinition, { form, rules }: LauncherForm) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const id = useId();
  const key = input.key;
  const rule = rules[key] ?? {};
  const error = form.errors[key];

  /** Asks once: busy meanwhile, the last failure cleared first; `ask` returns the failure to show, if any. */
  const pick = async (ask: () => Promise<string | undefined>) => {
    setBusy(true);
    setFailure(null);
    try {
      const failed = await ask();
      if (failed !== undefined) setFailure(failed);
    } finally {
      setBusy(false);
    }
  };

  return { id, key, rule, error, busy, failure, pick };
}

export type Picker = ReturnType<typeof usePicker>;

export interface PickerFieldProps {
  input: FlowInputDefinition;
  picker: Picker;
  /** The field's own class: launcher-certificate, launcher-selection. */
  className: string;
  /** What is chosen now; the caller gives it the id `${picker.id}-chosen`. */
  chosen: ReactNode;
  /** The button that asks, and any note beside it. */
  children: ReactNode;
}

/** The frame of such an input: label, help, what is chosen, the button with the failure, the error line. */
export function PickerField({ input, picker: { id, rule, error, failure }, className, chosen, children }: PickerFieldProps) {
  return (
    <div className={`launcher-input ${className}${error ? ' launcher-input--invalid' : ''}`} role="group" aria-labelledby={`${id}-label`}>
      <span className="app-field__label" id={`${id}-label`}>{rule.required ? `${input.label} *` : input.label}</span>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      {chosen}
      <div className="launcher-certificate__actions">
        {children}
        {failure && <span role="alert" className="launcher-input__failure">{failure}</span>}
      </div>
      <FieldMessage id={`${id}-error`} error={error} rule={rule} />
    </div>
  );
}
