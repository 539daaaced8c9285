import type { ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Popover as AriaPopover } from 'react-aria-components';
import './Popover.css';

export interface PopoverProps {
  /** The button's text (or its accessible name when `trigger` is an icon). */
  label: string;
  /** What the button shows; the label when absent. */
  trigger?: ReactNode;
  /** A heading inside the panel, which also names it; the label names it otherwise. */
  title?: string;
  children: ReactNode;
  placement?: 'bottom start' | 'bottom end' | 'top start' | 'top end';
}

/**
 * A button with a small panel beside it (React Aria Components): the panel is a non-modal dialog that
 * takes focus when it opens, closes on Escape or a click outside, and hands focus back to the button.
 * For help text, filters, a calendar under a date field.
 */
export function Popover({ label, trigger, title, children, placement = 'bottom start' }: PopoverProps) {
  return (
    <DialogTrigger>
      <Button className="ui-button ui-button--ghost ui-popover__trigger" aria-label={trigger ? label : undefined}>
        {trigger ?? label}
      </Button>
      <AriaPopover className="ui-popover" placement={placement}>
        <Dialog className="ui-popover__dialog" aria-label={title ? undefined : label}>
          {title && (
            <Heading slot="title" className="ui-popover__title">
              {title}
            </Heading>
          )}
          {children}
        </Dialog>
      </AriaPopover>
    </DialogTrigger>
  );
}
