import { Link } from 'react-router-dom';
import type { FlowLog } from '#shared/api/flows.ts';
import { AUTOPILOT_REFRESH_MS } from '#shared/autopilot/state.ts';
import { runStatus } from '#shared/runlogs/index.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { useFlowlogQuery, useSchedulesQuery } from '../../api/flows.ts';
import { useSession } from '../../app/hooks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { IconRobot } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TaskList } from './TaskList.tsx';
import { rowFromSchedule } from './taskRows.ts';
import type { TaskRow } from './taskRows.ts';
import { useNow } from './useAutopilotSnapshot.ts';

/** How many of a schedule's latest runs the panel lists. */
export const LOGS_PER_SCHEDULE = 5;

/**
 * The panel on the web (spec §6): read-only. The user's own scheduled robots (GET schedule?user=),
 * the same rows as on the desktop without deletes or apps, each with its latest remote runs.
 */
export function WebSchedules({ onLeave }: { onLeave: () => void }) {
  const email = useSession().user?.email;
  // Only the day groups depend on the clock here (no rings on the web): once a minute is enough.
  const now = useNow(60_000);
  const { data, isLoading, isError, refetch } = useSchedulesQuery({ user: email }, { skip: !email, pollingInterval: AUTOPILOT_REFRESH_MS });

  if (isLoading) return <Spinner label={text.loadingSchedules} />;
  if (isError) {
    return (
      <div role="alert" className="autopilot-error">
        <p>{text.schedulesFailed}</p>
        <Button variant="secondary" onClick={() => void refetch()}>{text.retry}</Button>
      </div>
    );
  }
  const rows = (data ?? []).map(rowFromSchedule);
  if (rows.length === 0) return <EmptyState title={text.emptyReadOnly} icon={<IconRobot size={32} />} headingLevel={3} />;
  return <TaskList rows={rows} now={now} renderAfter={(row) => <ScheduleLogs row={row} onLeave={onLeave} />} />;
}

function logResult(log: FlowLog, currencies: string | undefined): string {
  if (log.state === 'finished' || log.stoppedByUser) return runStatus(log, currencies).label;
  return log.state === 'queued' ? text.logs.queued : text.logs.running;
}

/** A schedule's latest runs (GET flowlog?browserFlowSchedule=), with the way to the history. */
function ScheduleLogs({ row, onLeave }: { row: TaskRow; onLeave: () => void }) {
  const currencies = useSession().user?.group.config.currencies;
  const { data, isLoading, isError } = useFlowlogQuery({ browserFlowSchedule: row.id, limit: LOGS_PER_SCHEDULE });
  const label = text.logs.title(row.title);
  if (isLoading) return <Spinner size="small" label={text.logs.loading} />;
  if (isError) return <p className="autopilot-logs__note">{text.logs.failed}</p>;
  const logs = data?.items ?? [];
  if (logs.length === 0) return <p className="autopilot-logs__note">{text.logs.none}</p>;
  return (
    <div className="autopilot-logs">
      <ul className="autopilot-logs__list" aria-label={label}>
        {logs.map((log) => (
          <li key={log._id} className="autopilot-logs__item">
            <span>{formatMadridDateTime(new Date(log.createAt))}</span>
            <span className="autopilot-logs__result">{logResult(log, currencies)}</span>
          </li>
        ))}
      </ul>
      <Link to={text.historyPath} className="autopilot-logs__link" onClick={onLeave}>{text.logs.history}</Link>
    </div>
  );
}
