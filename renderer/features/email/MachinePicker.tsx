import { useId } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import { mail } from '../../i18n/es-mail.ts';

const text = mail.machine;
/** The select's value for the firm's own config (no device). */
const FIRM = 'asesoria';

interface MachinePickerProps {
  machines: readonly Machine[];
  /** The device; null: the firm's own config. */
  value: string | null;
  onChange: (machineId: string | null) => void;
  error?: string;
}

/**
 * Where the config is saved, chosen before step 1 (issue 43): the whole firm (no device needed: the
 * server's robots use it too), or one of the devices the user sees.
 */
export function MachinePicker({ machines, value, onChange, error }: MachinePickerProps) {
  const id = useId();
  const known = value === null || machines.some((machine) => machine._id === value);
  return (
    <div className={`app-field email-machine${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{text.where}</label>
      <select
        id={id}
        className="ui-input"
        value={value ?? FIRM}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(event) => onChange(event.target.value === FIRM ? null : event.target.value)}
      >
        <option value={FIRM}>{text.firm}</option>
        {!known && value !== null && <option value={value} disabled>{text.choose}</option>}
        {machines.map((machine) => (
          <option key={machine._id} value={machine._id}>{machine.savedAs || machine.name}</option>
        ))}
      </select>
      <p id={`${id}-hint`} className="ui-muted email-note">{value === null ? text.firmHint : text.hint}</p>
      <p className="app-field__error">
        <span id={`${id}-error`}>{error}</span>
      </p>
    </div>
  );
}
