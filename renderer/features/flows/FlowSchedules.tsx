import { useState } from 'react';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import { repeatText } from '#shared/schedule/next-run.ts';
import { formatMadridDate, formatMadridTime } from '#shared/time/madrid.ts';
import { useDeleteScheduleMutation, useSchedulesQuery } from '../../api/flows.ts';
import { useToast } from '../../app/hooks.ts';
import { flows } from '../../i18n/es-flows.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Button } from '../../ui/index.ts';
import { LoadSection } from './LoadSection.tsx';

const text = flows.schedules;

/** '03/02/2025 a las 09:30', Madrid time. */
function whenText(schedule: ScheduledFlow): string {
  const date = new Date(schedule.scheduledDate);
  return text.when(formatMadridDate(date), formatMadridTime(date));
}

export interface FlowSchedulesProps {
  flowId: string;
  /** The schedules listed are the signed-in user's (GET schedule?user=<email>). */
  userEmail: string | undefined;
}

/** The user's schedules of this robot, next first, each with its repeat and a delete that asks first. */
export function FlowSchedules({ flowId, userEmail }: FlowSchedulesProps) {
  const query = useSchedulesQuery({ user: userEmail }, { skip: !userEmail });
  const { data } = query;
  const [deleteSchedule, { isLoading: deleting }] = useDeleteScheduleMutation();
  const [confirming, setConfirming] = useState<ScheduledFlow | null>(null);
  const toast = useToast();
  const schedules = (data ?? [])
    .filter((schedule) => schedule.browserFlow === flowId)
    .sort((a, b) => Date.parse(a.scheduledDate) - Date.parse(b.scheduledDate));

  const remove = async (schedule: ScheduledFlow) => {
    try {
      await deleteSchedule(schedule._id).unwrap();
      toast.success(text.removed);
    } catch {
      toast.error(text.removeFailed);
    } finally {
      setConfirming(null);
    }
  };

  return (
    <LoadSection titleId="flow-schedules-title" title={text.title} loadingLabel={text.loading} failedText={text.failed} query={query}>
      {data && schedules.length === 0 && <p className="ui-muted">{text.empty}</p>}
      {schedules.length > 0 && (
        <ul className="flows-schedules" aria-label={text.listLabel}>
          {schedules.map((schedule) => {
            const when = whenText(schedule);
            return (
              <li key={schedule._id} className="flows-schedules__item">
                <div className="flows-schedules__text">
                  <span className="flows-schedules__when">{when}</span>
                  <span className="ui-muted">{schedule.repeat ? repeatText(schedule.every, schedule.interval) : text.once}</span>
                  {schedule.machine && <span className="ui-muted">{text.onMachine(schedule.machine.name)}</span>}
                </div>
                <Button variant="ghost" aria-label={text.removeLabel(when)} onClick={() => setConfirming(schedule)}>
                  {text.remove}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={text.confirmTitle}
        text={confirming ? text.confirmText(whenText(confirming)) : ''}
        confirmLabel={text.remove}
        busy={deleting}
        onConfirm={() => confirming && void remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </LoadSection>
  );
}
