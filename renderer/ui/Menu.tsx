import type { ReactNode } from 'react';
import { Button, Menu as AriaMenu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import './Popover.css';
import './Menu.css';

export interface MenuAction {
  id: string;
  label: string;
  disabled?: boolean;
  /** Destructive actions (delete, revoke) are drawn in the danger colour. */
  danger?: boolean;
}

export interface MenuProps {
  /** Names the button and the menu for screen readers. */
  label: string;
  actions: readonly MenuAction[];
  onAction: (id: string) => void;
  /** What the button shows (an icon, a word); the label when absent. */
  children?: ReactNode;
}

/**
 * A button that opens a list of actions (React Aria Components): Enter, Space or ArrowDown open it on
 * the first action, arrows move, typing jumps to an action, Enter runs it, Escape closes it, and
 * focus goes back to the button.
 */
export function Menu({ label, actions, onAction, children }: MenuProps) {
  return (
    <MenuTrigger>
      <Button className="ui-button ui-button--ghost ui-menu__trigger" aria-label={children ? label : undefined}>
        {children ?? label}
      </Button>
      <Popover className="ui-popover ui-menu__popover" placement="bottom end">
        <AriaMenu
          className="ui-menu"
          aria-label={label}
          disabledKeys={actions.filter((action) => action.disabled).map((action) => action.id)}
          onAction={(key) => onAction(String(key))}
        >
          {actions.map((action) => (
            <MenuItem key={action.id} id={action.id} className={action.danger ? 'ui-menu__item ui-menu__item--danger' : 'ui-menu__item'}>
              {action.label}
            </MenuItem>
          ))}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}
