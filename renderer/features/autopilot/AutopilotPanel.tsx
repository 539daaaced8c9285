import { useRef } from 'react';
import type { MouseEvent } from 'react';
import { Dialog, Heading, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import { useToast } from '../../app/hooks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { IconClose } from '../../ui/icons.tsx';
import { DesktopAutopilot } from './DesktopAutopilot.tsx';
import { EXIT_HINT_MS, createOutsideClickJudge } from './outsideClicks.ts';
import { WebSchedules } from './WebSchedules.tsx';
import '../../ui/ui.css';
import './autopilot.css';

export interface AutopilotPanelProps {
  /** The desktop app with its bridge: the full panel; otherwise the web's read-only one. */
  desktop: boolean;
  title: string;
  onClose: () => void;
}

/**
 * The autopilot's modal (spec §2). Not the shared Modal: a click outside must not close it. A single
 * click outside shows the hint 'Haz doble click fuera para salir'; a second within 1 s closes it, as
 * do Escape and the close button. React Aria traps focus inside and hides the page behind it.
 */
export default function AutopilotPanel({ desktop, title, onClose }: AutopilotPanelProps) {
  const toast = useToast();
  const judge = useRef(createOutsideClickJudge());

  const onBackdropClick = (event: MouseEvent<HTMLDivElement>) => {
    // Only the backdrop itself: clicks inside the panel, or in a dialog over it, bubble here too.
    if (event.target !== event.currentTarget) return;
    if (judge.current(Date.now()) === 'close') onClose();
    else toast.info(text.exitHint, EXIT_HINT_MS);
  };

  return (
    <ModalOverlay
      isOpen
      isDismissable={false}
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
      className="ui-modal-backdrop autopilot-backdrop"
      onClick={onBackdropClick}
    >
      <AriaModal className={desktop ? 'ui-modal ui-modal--large autopilot-modal' : 'ui-modal ui-modal--medium'}>
        <Dialog className="ui-modal__dialog" render={(props) => <section {...props} aria-modal="true" />}>
          <div className="ui-modal__head">
            <Heading slot="title" className="ui-modal__title">
              {title}
            </Heading>
            <button type="button" className="ui-icon-button" onClick={onClose} aria-label={text.close}>
              <IconClose size={18} />
            </button>
          </div>
          <div className="ui-modal__body autopilot-body">{desktop ? <DesktopAutopilot onLeave={onClose} /> : <WebSchedules onLeave={onClose} />}</div>
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}
