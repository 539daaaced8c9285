import { useId } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import { mail } from '../../i18n/es-mail.ts';

const text = mail.machine;

interface MachinePickerProps {
  machines: readonly Machine[];
  value: string | null;
  onChange: (machineId: string) => void;
  error?: string;
}

/** The machine the config is saved on, when /email was opened without ?machine=. */
export function MachinePicker({ machines, value, onChange, error }: MachinePickerProps) {
  const id = useId();
  return (
    <div className={`app-field email-machine${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{text.label}</label>
      <select
        id={id}
        className="ui-input"
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="" disabled>{text.choose}</option>
        {machines.map((machine) => (
          <option key={machine._id} value={machine._id}>{machine.savedAs || machine.name}</option>
        ))}
      </select>
      <p id={`${id}-hint`} className="ui-muted email-note">{text.hint}</p>
      <p className="app-field__error">
        <span id={`${id}-error`}>{error}</span>
      </p>
    </div>
  );
}
