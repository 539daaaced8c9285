import { useRef } from 'react';
import { Dialog, Heading, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import { widgets } from '../i18n/es-screens.ts';
import { IconClose } from './icons.tsx';
import type { ModalProps } from './modalProps.ts';
import { useOverflows } from './useOverflows.ts';

/**
 * The dialog itself, on React Aria Components: it traps focus, hides the rest of the page from
 * assistive technology, closes on Escape and on a backdrop click (when dismissable), and gives focus
 * back to the opener. Loaded only once a Modal opens (see Modal.tsx).
 */
export default function ModalDialog({ title, onClose, children, footer, size = 'medium', dismissable = true }: Omit<ModalProps, 'open'>) {
  const body = useRef<HTMLDivElement>(null);
  // A body that scrolls (a long detail on a phone) takes focus, so the keyboard can scroll it; it is named by the title.
  const scrolls = useOverflows(body);
  return (
    <ModalOverlay
      isOpen
      isDismissable={dismissable}
      isKeyboardDismissDisabled={!dismissable}
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
      className="ui-modal-backdrop"
    >
      <AriaModal className={`ui-modal ui-modal--${size}`}>
        {/* React Aria leaves out aria-modal (a Safari focus bug) and hides the page instead; say it anyway for screen readers that read it. */}
        <Dialog className="ui-modal__dialog" render={(props) => <section {...props} aria-modal="true" />}>
          <div className="ui-modal__head">
            <Heading slot="title" className="ui-modal__title">
              {title}
            </Heading>
            {dismissable && (
              <button type="button" className="ui-icon-button" onClick={onClose} aria-label={widgets.close}>
                <IconClose size={18} />
              </button>
            )}
          </div>
          <div ref={body} className="ui-modal__body" {...(scrolls && { tabIndex: 0, role: 'region', 'aria-label': title })}>
            {children}
          </div>
          {footer && <div className="ui-modal__footer">{footer}</div>}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}
