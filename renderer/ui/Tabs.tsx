import { useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components';

export interface Choice<T extends string> {
  value: T;
  label: string;
  disabled?: boolean;
}

/**
 * Arrow keys, Home and End move between enabled choices, wrapping at the ends. Kept for the
 * segmented filter: a radio group whose arrow keys select, which React Aria's RadioGroup only does
 * through native radio inputs (and ToggleButtonGroup not at all).
 */
function nextEnabledIndex<T extends string>(choices: readonly Choice<T>[], from: number, key: string): number | null {
  const enabled = choices.map((choice, index) => (choice.disabled ? -1 : index)).filter((index) => index >= 0);
  if (enabled.length === 0) return null;
  const position = Math.max(0, enabled.indexOf(from));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return enabled[(position + 1) % enabled.length] ?? null;
    case 'ArrowLeft':
    case 'ArrowUp':
      return enabled[(position - 1 + enabled.length) % enabled.length] ?? null;
    case 'Home':
      return enabled[0] ?? null;
    case 'End':
      return enabled[enabled.length - 1] ?? null;
    default:
      return null;
  }
}

function useRovingKeys<T extends string>(choices: readonly Choice<T>[], value: T, onChange: (value: T) => void) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const next = nextEnabledIndex(choices, choices.findIndex((choice) => choice.value === value), event.key);
    const choice = next === null ? undefined : choices[next];
    if (next === null || !choice) return;
    event.preventDefault();
    onChange(choice.value);
    refs.current[next]?.focus();
  };
  return { refs, onKeyDown };
}

export interface TabsProps<T extends string> {
  label: string;
  tabs: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  /** The content of the selected tab. */
  children?: ReactNode;
}

/**
 * Tabs on React Aria Components: arrow keys (wrapping, skipping disabled tabs), Home and End move
 * and select, and the one panel is labelled by its tab. Controlled: the caller renders the selected
 * tab's content as children.
 */
export function Tabs<T extends string>({ label, tabs, value, onChange, children }: TabsProps<T>) {
  return (
    <AriaTabs
      className="ui-tabs"
      selectedKey={value}
      disabledKeys={tabs.filter((tab) => tab.disabled).map((tab) => tab.value)}
      onSelectionChange={(key) => {
        const tab = tabs.find((choice) => choice.value === key);
        if (tab) onChange(tab.value);
      }}
    >
      <TabList aria-label={label} className="ui-tabs__list">
        {tabs.map((tab) => (
          <Tab key={tab.value} id={tab.value} className="ui-tabs__tab">
            {tab.label}
          </Tab>
        ))}
      </TabList>
      {/* Keyed by the tab: React Aria sets the panel's DOM id when it mounts, so a reused panel kept
          the first tab's id and the selected tab's aria-controls pointed at nothing (axe: critical). */}
      <TabPanel key={value} id={value} className="ui-tabs__panel">
        {children}
      </TabPanel>
    </AriaTabs>
  );
}

export interface SegmentedFilterProps<T extends string> {
  label: string;
  options: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}

/** A row of mutually exclusive filter buttons, announced as a radio group. */
export function SegmentedFilter<T extends string>({ label, options, value, onChange }: SegmentedFilterProps<T>) {
  const { refs, onKeyDown } = useRovingKeys(options, value, onChange);
  return (
    <div role="radiogroup" aria-label={label} className="ui-segmented">
      {options.map((option, index) => {
        const checked = option.value === value;
        return (
          <button
            key={option.value}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            disabled={option.disabled}
            className="ui-segmented__option"
            onClick={() => onChange(option.value)}
            onKeyDown={onKeyDown}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
