import { useId } from 'react';

export interface ToggleProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** A short line under the label explaining what the switch does. */
  description?: string;
}

/** An on/off switch: a real button with role="switch", so Space and Enter toggle it. */
export function Toggle({ label, checked, onChange, disabled = false, description }: ToggleProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <div className="ui-toggle">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={description ? descriptionId : undefined}
        disabled={disabled}
        className="ui-toggle__switch"
        onClick={() => onChange(!checked)}
      >
        <span className="ui-toggle__thumb" aria-hidden="true" />
      </button>
      <span className="ui-toggle__text">
        <span id={labelId} className="ui-toggle__label">{label}</span>
        {description && <span id={descriptionId} className="ui-toggle__description">{description}</span>}
      </span>
    </div>
  );
}
