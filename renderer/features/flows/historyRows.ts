import type { FlowLog } from '#shared/api/flows.ts';
import { formatCredits } from '#shared/billing/money.ts';
import { executionType, runCost, runStatus, successRatio } from '#shared/runlogs/index.ts';
import type { ExecutionType, RunStatusCode } from '#shared/runlogs/index.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { flows } from '../../i18n/es-flows.ts';

const text = flows.history;

/** How a result reads at a glance: finished, failed, stopped or still going. */
export type ResultTone = 'success' | 'danger' | 'warning' | 'neutral';

/** One run as the history table shows it (spec §2 Flows screen, §4 run log status mapping, §9). */
export interface HistoryRow {
  id: string;
  robot: string;
  /** False when the robot left the catalogue: the name says 'Este robot ya no forma parte de nuestra familia'. */
  robotKnown: boolean;
  launchType: ExecutionType;
  /** The machine a desktop flow ran on; null for server flows. */
  machine: string | null;
  /** dd/mm/yyyy hh:mm in Europe/Madrid. */
  date: string;
  result: { label: string; tone: ResultTone };
  cost: string;
  /** '8 de 10' and '80 %', low under 75 % (warning colour); null when the run counted no iterations. */
  iterations: { count: string; percentage: string; low: boolean } | null;
  /** From launch to end, '1 min 05 s'; '—' while the run has not ended. */
  duration: string;
  /** What the user can do to a run not yet ended: cancel it while queued, stop it while running. */
  action: { kind: 'cancel' | 'stop'; token: string } | null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** '42 s', '1 min 05 s', '2 h 03 min'; '—' when the run has not ended (or its times make no sense). */
export function formatDuration(startIso: string, endIso: string | null): string {
  if (endIso === null) return text.noDuration;
  const milliseconds = Date.parse(endIso) - Date.parse(startIso);
  if (!Number.isFinite(milliseconds) || milliseconds < 0) return text.noDuration;
  const seconds = Math.round(milliseconds / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${pad(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

function toneOf(status: RunStatusCode | null): ResultTone {
  switch (status) {
    case 200: return 'success';
    case 202:
    case 299: return 'warning';
    default: return 'danger';
  }
}

const percent = new Intl.NumberFormat('es-ES', { style: 'percent', maximumFractionDigits: 0 });

/** `currencies` is the firm's 'singular|plural' credit names (group config), for the 402 label and the cost. */
export function toHistoryRow(log: FlowLog, currencies?: string): HistoryRow {
  const name = log.browserFlow.name;
  const finished = log.state === 'finished';
  const status = runStatus(log, currencies);
  const ratio = successRatio(log.successfulIterations, log.totalIterations);
  return {
    id: log._id,
    robot: name ?? text.unknownRobot,
    robotKnown: name !== null,
    launchType: executionType(log),
    machine: log.machine?.name ?? null,
    date: formatMadridDateTime(new Date(log.createAt)),
    // A run still going has no result yet: say so rather than 'Error inesperado' (unless the user stopped it).
    result: finished || log.stoppedByUser
      ? { label: status.label, tone: toneOf(status.status) }
      : { label: log.state === 'queued' ? text.queued : text.running, tone: 'neutral' },
    cost: formatCredits(runCost(log.usageHistory), currencies),
    iterations: ratio && {
      count: text.iterations(log.successfulIterations, log.totalIterations),
      percentage: percent.format(ratio.percentage / 100),
      // While a run goes these are its progress, not its success: 6 % done is not a warning.
      low: finished && ratio.low,
    },
    duration: finished ? formatDuration(log.createAt, log.finishedAt) : text.noDuration,
    action: finished || log.stoppedByUser || !log.executionToken ? null : { kind: log.state === 'queued' ? 'cancel' : 'stop', token: log.executionToken },
  };
}
