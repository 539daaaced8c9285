import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { creditUnitNames, formatCredits } from '#shared/billing/index.ts';
import { launcher } from '../../i18n/es-launcher.ts';
import { IconClose } from '../../ui/icons.tsx';
import { useAppDispatch, useAppSelector, useSession } from '../hooks.ts';
import { runNotificationDismissed } from '../runNotifications.ts';
import type { FinishedRun } from '../runNotifications.ts';
import './RunNotification.css';

const text = launcher.notification;

/** Spec §9: the run notification dismisses itself after 6 s. */
export const RUN_NOTIFICATION_MS = 6000;
/** How long it takes to slide off before it is gone. */
export const RUN_NOTIFICATION_LEAVE_MS = 250;

/**
 * The floating run notification (spec §4): the latest finished run, shown for 6 s and then shifted
 * off. It opens by itself when the robot wrote lines for the user; a click opens or closes it, and
 * while the user holds it open the timer waits (it resumes with the time that was left).
 */
export function RunNotification() {
  const latest = useAppSelector((state) => state.runNotifications.latest);
  return latest ? <Notification key={latest.runId} run={latest} /> : null;
}

function Notification({ run }: { run: FinishedRun }) {
  const dispatch = useAppDispatch();
  const currencies = useSession().user?.group.config.currencies;
  const hasLines = run.consoleLog.length > 0;
  const [expanded, setExpanded] = useState(hasLines);
  const [paused, setPaused] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const remaining = useRef(RUN_NOTIFICATION_MS);
  const startedAt = useRef(0);

  const dismiss = useCallback(() => dispatch(runNotificationDismissed(run.runId)), [dispatch, run.runId]);

  useEffect(() => {
    if (paused || leaving) return undefined;
    startedAt.current = Date.now();
    const timer = setTimeout(() => setLeaving(true), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
    };
  }, [paused, leaving]);

  useEffect(() => {
    if (!leaving) return undefined;
    const timer = setTimeout(dismiss, RUN_NOTIFICATION_LEAVE_MS);
    return () => clearTimeout(timer);
  }, [leaving, dismiss]);

  const toggle = () => {
    const open = !expanded;
    setExpanded(open);
    // Held open by the user: the timer waits until they close it again.
    setPaused(open);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') dismiss();
  };

  const ok = run.status === 200;
  const label = launcher.statusLabel(run.status, creditUnitNames(currencies).plural);
  const detailsId = `run-notification-${run.runId}`;
  return (
    <aside
      className={`run-notification${leaving ? ' run-notification--leaving' : ''}${ok ? ' run-notification--ok' : ' run-notification--failed'}`}
      aria-label={text.region}
      onKeyDown={onKeyDown}
    >
      <div className="run-notification__head">
        <button
          type="button"
          className="run-notification__toggle"
          aria-expanded={expanded}
          aria-controls={hasLines ? detailsId : undefined}
          onClick={toggle}
        >
          <span className="run-notification__title" role="status">{text.title(run.flowName, label)}</span>
          <span className="run-notification__meta">{text.charged(formatCredits(run.cost, currencies))}</span>
          <span className="ui-visually-hidden">{expanded ? text.collapse : text.expand}</span>
        </button>
        <button type="button" className="ui-icon-button run-notification__close" aria-label={text.close} onClick={dismiss}>
          <IconClose size={16} />
        </button>
      </div>
      {expanded && hasLines && (
        <ol id={detailsId} className="run-notification__lines" aria-label={text.messages} tabIndex={0}>
          {run.consoleLog.slice(-20).map((line, index) => <li key={index}>{line}</li>)}
        </ol>
      )}
      {paused && <p className="run-notification__paused">{text.paused}</p>}
    </aside>
  );
}
