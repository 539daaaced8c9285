import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useBridge, useEmbedded, useToast } from '../../app/hooks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { Contained } from './Contained.tsx';
import { readPanelOpen, writePanelOpen } from './openState.ts';
import './dock.css';

// The button is all the shell carries; the badge's data and the panel come in their own chunks.
const AutopilotBadge = lazy(() => import('./AutopilotBadge.tsx'));
const AutopilotPanel = lazy(() => import('./AutopilotPanel.tsx'));

/**
 * The autopilot button, bottom right (spec §2), in a strip of its own so it covers nothing: 'Piloto automático' in the desktop app,
 * 'Robots programados' on the web, with a badge of the tasks to do. It opens the panel; whether the
 * panel is open is kept in local storage, so it opens again after a reload.
 */
export function AutopilotDock() {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const desktop = embedded && bridge.available;
  const label = desktop ? text.buttonEmbedded : text.buttonReadOnly;
  const [open, setOpen] = useState(() => readPanelOpen(window.localStorage));
  const buttonRef = useRef<HTMLButtonElement>(null);
  const closedByUser = useRef(false);
  const toast = useToast();

  const change = (next: boolean) => {
    closedByUser.current = !next;
    setOpen(next);
    writePanelOpen(window.localStorage, next);
  };

  // Focus goes back to the button once the panel has gone (also when it was opened by a reload).
  useEffect(() => {
    if (!open && closedByUser.current) {
      closedByUser.current = false;
      buttonRef.current?.focus();
    }
  }, [open]);

  return (
    <>
      <div className="autopilot-dock-bar">
      <button
        ref={buttonRef}
        type="button"
        className="autopilot-dock"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => change(true)}
      >
        <span className="autopilot-dock__label">{label}</span>
        <Contained>
          <Suspense fallback={null}>
            <AutopilotBadge desktop={desktop} />
          </Suspense>
        </Contained>
      </button>
      </div>
      {open && (
        <Contained
          onError={() => {
            // Closed for good, so a reload does not reopen a panel that cannot show.
            change(false);
            toast.error(text.panelFailed);
          }}
        >
          <Suspense fallback={null}>
            <AutopilotPanel desktop={desktop} title={label} onClose={() => change(false)} />
          </Suspense>
        </Contained>
      )}
    </>
  );
}
