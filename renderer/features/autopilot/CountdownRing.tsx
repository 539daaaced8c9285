import { autopilot as text } from '../../i18n/es-autopilot.ts';

const RADIUS = 9;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export interface CountdownRingProps {
  /** When the app's refresh timer fires next. */
  nextRefreshAt: string;
  refreshEveryMs: number;
  now: Date;
}

/** Whole seconds left before the refresh (0 once it is due), and the share of the period left (0..1). */
export function countdown(nextRefreshAt: string, refreshEveryMs: number, now: Date): { seconds: number; left: number } {
  const remaining = Math.max(0, Date.parse(nextRefreshAt) - now.getTime());
  const left = refreshEveryMs > 0 ? Math.min(1, remaining / refreshEveryMs) : 0;
  return { seconds: Math.ceil(remaining / 1000), left };
}

/** An active app's refresh countdown: a ring that empties as the next refresh comes (spec §2). */
export function CountdownRing({ nextRefreshAt, refreshEveryMs, now }: CountdownRingProps) {
  const { seconds, left } = countdown(nextRefreshAt, refreshEveryMs, now);
  const label = seconds > 0 ? text.refreshIn(seconds) : text.refreshing;
  return (
    <span className="autopilot-ring" role="img" aria-label={label} title={label}>
      <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle className="autopilot-ring__track" cx="12" cy="12" r={RADIUS} />
        <circle
          className="autopilot-ring__left"
          cx="12"
          cy="12"
          r={RADIUS}
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={CIRCUMFERENCE * (1 - left)}
          transform="rotate(-90 12 12)"
        />
      </svg>
    </span>
  );
}
