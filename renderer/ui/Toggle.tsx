import { useId } from 'react';

export interface ToggleProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** A short line under the label explaining what the switch does. */
  description?: string;
}

/** An on/off switch: a real button with role="switch", so Space and Enter toggle it; its label is a <label> for it, so a click on the words toggles it as well. */
export function Toggle({ label, checked, onChange, disabled = false, description }: ToggleProps) {
  const labelId = useId();
  const switchId = useId();
  const descriptionId = useId();
  return (
    <div className="ui-toggle">
      <button
        id={switchId}
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
        {/* A real label: clicking the words toggles the switch too. */}
        <label id={labelId} htmlFor={switchId} className="ui-toggle__label">{label}</label>
        {description && <span id={descriptionId} className="ui-toggle__description">{description}</span>}
      </span>
    </div>
  );
}
