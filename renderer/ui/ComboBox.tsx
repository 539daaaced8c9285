import { Button, ComboBox as AriaComboBox, FieldError, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import { widgets } from '../i18n/es-screens.ts';
import './Popover.css';
import './ComboBox.css';
import { IconChevronDown } from './icons.tsx';

/** Spec §5: a choice among more than this many options is searchable (use ComboBox, not a plain select). */
export const SEARCHABLE_OPTIONS_THRESHOLD = 5;

export interface ComboOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface ComboBoxProps {
  label: string;
  options: readonly ComboOption[];
  /** The chosen option's value, or null when none is. */
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
  /** A hint under the field. */
  description?: string;
  disabled?: boolean;
  /** A message under the field; the input is marked invalid and described by it. */
  error?: string;
  required?: boolean;
}

/**
 * A searchable select (React Aria Components): typing filters the options (case and accents ignored),
 * arrows move through them, Enter chooses, Escape closes and restores the chosen option's text.
 */
export function ComboBox({ label, options, value, onChange, placeholder, description, disabled, error, required }: ComboBoxProps) {
  return (
    <AriaComboBox
      className="ui-combobox"
      selectedKey={value}
      onSelectionChange={(key) => onChange(key === null ? null : String(key))}
      disabledKeys={options.filter((option) => option.disabled).map((option) => option.value)}
      isDisabled={disabled}
      isRequired={required}
      isInvalid={error !== undefined && error !== ''}
      // The form shows its own messages: no browser validation bubbles.
      validationBehavior="aria"
      menuTrigger="focus"
      // Keep the list open on no match so it can say so, instead of vanishing.
      allowsEmptyCollection
    >
      <Label className="ui-combobox__label">{label}</Label>
      <div className="ui-combobox__control">
        <Input className="ui-input ui-combobox__input" placeholder={placeholder} />
        <Button className="ui-icon-button ui-combobox__button" aria-label={widgets.showOptions}>
          <IconChevronDown size={16} />
        </Button>
      </div>
      {description && (
        <Text slot="description" className="ui-combobox__hint">
          {description}
        </Text>
      )}
      {error && <FieldError className="ui-combobox__error">{error}</FieldError>}
      <Popover className="ui-popover ui-combobox__popover" placement="bottom start">
        <ListBox className="ui-listbox" renderEmptyState={() => <p className="ui-listbox__empty">{widgets.noMatches}</p>}>
          {options.map((option) => (
            <ListBoxItem key={option.value} id={option.value} textValue={option.label} className="ui-listbox__option">
              {option.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
