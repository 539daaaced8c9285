import type { ReactNode } from 'react';
import { groupTasksByDay } from '#shared/schedule/tasks.ts';
import { formatMadridTime } from '#shared/time/madrid.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { IconCheck } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { AppIcon, ChipIcon } from './icons.tsx';
import type { TaskRow } from './taskRows.ts';

export interface TaskListProps {
  rows: readonly TaskRow[];
  now: Date;
  /** Drawn at the end of a row: the delete button (embedded) or the row's runs (web). */
  renderActions?: (row: TaskRow) => ReactNode;
  renderAfter?: (row: TaskRow) => ReactNode;
}

/** Spec §2 'Robots programados': tasks by Madrid day ('Robots para hoy' holds today and anything overdue). */
export function TaskList({ rows, now, renderActions, renderAfter }: TaskListProps) {
  const groups = groupTasksByDay(rows, now);
  return (
    <div className="autopilot-days">
      {groups.map((group) => (
        <section key={group.key} className="autopilot-day" aria-label={text.dayLabel(group.title, group.today)}>
          <h4 className="autopilot-day__title">{group.title}</h4>
          <ul className="autopilot-tasks">
            {group.tasks.map((row) => (
              <li key={row.id} className={row.done ? 'autopilot-task autopilot-task--done' : 'autopilot-task'} aria-busy={row.running || undefined}>
                <TaskLine row={row} actions={renderActions?.(row)} />
                {renderAfter?.(row)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function TaskLine({ row, actions }: { row: TaskRow; actions: ReactNode }) {
  return (
    <div className="autopilot-task__line">
      <span className="autopilot-task__when">
        {row.done ? (
          <span className="autopilot-task__done" role="img" aria-label={text.done} title={text.done}>
            <IconCheck size={18} />
          </span>
        ) : (
          <time dateTime={row.scheduledDate}>{formatMadridTime(new Date(row.scheduledDate))}</time>
        )}
      </span>
      <span className="autopilot-task__icon">
        <AppIcon app={row.app} size={20} />
      </span>
      <div className="autopilot-task__text">
        <span className="autopilot-task__title">{row.title}</span>
        {row.description && <span className="autopilot-task__description">{row.description}</span>}
        {row.repeat && <span className="autopilot-task__repeat">{row.repeat}</span>}
        {row.info.length > 0 && (
          <span className="autopilot-task__chips">
            {row.info.map((chip, index) => (
              <span key={`${chip.text}-${index}`} className="ui-chip autopilot-chip" title={chip.tooltip ?? undefined}>
                <ChipIcon name={chip.icon} size={14} />
                {chip.text}
              </span>
            ))}
          </span>
        )}
        {row.items.length > 0 && (
          <ul className="autopilot-task__items" aria-label={text.itemsLabel(row.title)}>
            {row.items.map((item, index) => (
              <li key={`${item}-${index}`}>{item}</li>
            ))}
          </ul>
        )}
      </div>
      <span className="autopilot-task__actions">
        {row.running ? (
          <span className="autopilot-task__running">
            <Spinner size="small" decorative />
            {text.running}
          </span>
        ) : row.removing ? (
          <span className="autopilot-task__running">
            <Spinner size="small" decorative />
            {text.removing}
          </span>
        ) : (
          actions
        )}
      </span>
    </div>
  );
}
