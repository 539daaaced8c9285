import { useSchedulesQuery } from '../../api/flows.ts';
import { useBridge, useSession } from '../../app/hooks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { pendingTaskCount } from './taskRows.ts';
import { useAutopilotSnapshot } from './useAutopilotSnapshot.ts';

/** The count on the floating button; nothing while it is unknown or zero. */
function Badge({ count }: { count: number | null }) {
  if (count === null || count === 0) return null;
  return (
    <>
      {/* The button reads 'Piloto automático (2 tareas pendientes)'; the number alone says little. */}
      <span className="autopilot-dock__badge" aria-hidden="true">{count > 99 ? '99+' : count}</span>{' '}
      <span className="ui-visually-hidden">({text.pendingTasks(count)})</span>
    </>
  );
}

function DesktopBadge() {
  const { snapshot } = useAutopilotSnapshot(useBridge());
  return <Badge count={snapshot ? pendingTaskCount(snapshot.tasks) : null} />;
}

function WebBadge() {
  const email = useSession().user?.email;
  const { data } = useSchedulesQuery({ user: email }, { skip: !email });
  return <Badge count={data ? data.length : null} />;
}

/**
 * Loaded after the button itself (its own chunk): the data behind the badge, the desktop's snapshot
 * or, on the web, the user's schedules.
 */
export default function AutopilotBadge({ desktop }: { desktop: boolean }) {
  return desktop ? <DesktopBadge /> : <WebBadge />;
}
