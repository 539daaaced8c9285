import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { creditUnitNames, formatCredits } from '#shared/billing/index.ts';
import { launcher } from '../../i18n/es-launcher.ts';
import { IconClose } from '../../ui/icons.tsx';
import { useAppDispatch, useAppSelector, useSession } from '../hooks.ts';
import { runNotificationDismissed, selectShownRun } from '../runNotifications.ts';
import type { ShownRun } from '../runNotifications.ts';
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
 *
 * Issue 19: while a run launched from the launcher goes on and the launcher no longer shows it, it
 * shows that run in progress (the latest launched, and how many more are going), its bar and figures
 * updated by the launch's own poll; it stays while the run goes and, when the run ends, the same
 * notification becomes the finished one and its 6 s start.
 */
export function RunNotification() {
  const shown = useAppSelector(selectShownRun);
  return shown ? <Notification key={shown.run.runId} shown={shown} /> : null;
}

function Notification({ shown }: { shown: ShownRun }) {
  const dispatch = useAppDispatch();
  const currencies = useSession().user?.group.config.currencies;
  const { run, othersRunning } = shown;
  const running = shown.kind === 'running';
  const hasLines = run.consoleLog.length > 0;
  const [expanded, setExpanded] = useState(!running && hasLines);
  const [paused, setPaused] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // Began as a run in progress: its bar stays (at the end figures) when it finishes, so it keeps its size.
  const [withBar] = useState(running);
  const [wasRunning, setWasRunning] = useState(running);
  const [pointerOver, setPointerOver] = useState(false);
  const remaining = useRef(RUN_NOTIFICATION_MS);
  const startedAt = useRef(0);

  if (wasRunning !== running) {
    setWasRunning(running);
    // Finished: it opens by itself on the robot's lines, unless that would move it under the pointer.
    if (!running && hasLines && !pointerOver) setExpanded(true);
  }

  const dismiss = useCallback(() => dispatch(runNotificationDismissed(run.runId)), [dispatch, run.runId]);

  useEffect(() => {
    // A run in progress stays: the 6 s start when it has finished.
    if (running || paused || leaving) return undefined;
    startedAt.current = Date.now();
    const timer = setTimeout(() => setLeaving(true), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt.current));
    };
  }, [running, paused, leaving]);

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

  const done = run.successfulIterations ?? 0;
  const total = run.totalIterations ?? 0;
  let tone: string;
  let label: string;
  let meta: string;
  if (shown.kind === 'running') {
    tone = 'running';
    label = text.runningLabel;
    meta = total > 0 ? text.progress(done, total) : text.noFigures;
  } else {
    tone = shown.run.status === 200 ? 'ok' : 'failed';
    label = launcher.statusLabel(shown.run.status, creditUnitNames(currencies).plural);
    meta = text.charged(formatCredits(shown.run.cost, currencies));
  }
  const detailsId = `run-notification-${run.runId}`;
  return (
    <aside
      className={`run-notification run-notification--${tone}${leaving ? ' run-notification--leaving' : ''}`}
      aria-label={running ? text.runningRegion : text.region}
      onKeyDown={onKeyDown}
      onPointerEnter={() => setPointerOver(true)}
      onPointerLeave={() => setPointerOver(false)}
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
          <span className="run-notification__meta">{meta}</span>
          <span className="ui-visually-hidden">{expanded ? text.collapse : text.expand}</span>
        </button>
        <button type="button" className="ui-icon-button run-notification__close" aria-label={text.close} onClick={dismiss}>
          <IconClose size={16} />
        </button>
      </div>
      {withBar && (
        <progress
          className="run-notification__bar"
          max={Math.max(total, 1)}
          value={total > 0 ? Math.min(done, total) : undefined}
          aria-label={text.progressLabel(run.flowName)}
        />
      )}
      {othersRunning > 0 && <p className="run-notification__others">{text.othersRunning(othersRunning)}</p>}
      {expanded && hasLines && (
        <ol id={detailsId} className="run-notification__lines" aria-label={text.messages} tabIndex={0}>
          {run.consoleLog.slice(-20).map((line, index) => <li key={index}>{line}</li>)}
        </ol>
      )}
      {paused && !running && <p className="run-notification__paused">{text.paused}</p>}
    </aside>
  );
}
