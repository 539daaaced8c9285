import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { DEFAULT_STEPPER_RANGE, clampToRange, stepWithWrap } from '#shared/widgets/index.ts';
import { widgets } from '../i18n/es-screens.ts';
import { IconMinus, IconPlus } from './icons.tsx';

export interface StepperProps {
  label: string;
  value: number;
  onChange: (value: number) => void;
  /** The spec's default range is 0 to 50. */
  min?: number;
  max?: number;
  disabled?: boolean;
}

/**
 * A number stepper: minus and plus buttons around a spin button. Buttons and arrow keys step and
 * wrap at the ends (shared stepWithWrap); typed values are clamped into the range; Home and End jump
 * to the limits.
 */
export function Stepper({ label, value, onChange, min = DEFAULT_STEPPER_RANGE.min, max = DEFAULT_STEPPER_RANGE.max, disabled = false }: StepperProps) {
  const inputId = useId();
  // What the user is typing, kept apart from the value until it is committed.
  const [draft, setDraft] = useState<string | null>(null);

  const range = { min, max };
  const commit = (next: number) => {
    setDraft(null);
    if (next !== value) onChange(next);
  };
  const step = (delta: number) => commit(stepWithWrap(value, delta, range));

  const commitDraft = () => {
    if (draft === null) return;
    const typed = Number.parseInt(draft, 10);
    if (Number.isNaN(typed)) setDraft(null);
    else commit(clampToRange(typed, range));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const targets: Record<string, () => number> = {
      ArrowUp: () => stepWithWrap(value, 1, range),
      ArrowDown: () => stepWithWrap(value, -1, range),
      Home: () => min,
      End: () => max,
    };
    const target = targets[event.key];
    if (target) {
      event.preventDefault();
      commit(target());
    } else if (event.key === 'Enter') {
      commitDraft();
    }
  };

  return (
    <div className="ui-stepper">
      <label htmlFor={inputId} className="ui-stepper__label">{label}</label>
      <div className="ui-stepper__controls">
        <button type="button" className="ui-icon-button" aria-label={widgets.stepper.decrease} disabled={disabled} onClick={() => step(-1)}>
          <IconMinus size={18} />
        </button>
        <input
          id={inputId}
          className="ui-input ui-stepper__input"
          role="spinbutton"
          inputMode="numeric"
          aria-valuenow={value}
          aria-valuemin={min}
          aria-valuemax={max}
          disabled={disabled}
          value={draft ?? String(value)}
          onChange={(event) => setDraft(event.target.value.replace(/[^\d-]/g, ''))}
          onBlur={commitDraft}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="ui-icon-button" aria-label={widgets.stepper.increase} disabled={disabled} onClick={() => step(1)}>
          <IconPlus size={18} />
        </button>
      </div>
    </div>
  );
}
