import type { ReactNode } from 'react';
import { NOTIFICATION_SORT_FIELDS } from '#shared/api/notifications.ts';
import type { Notification, NotificationSortField } from '#shared/api/notifications.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { IconChevronDown, IconChevronUp, IconChevronUpDown } from '../../ui/index.ts';
import { daysLeft, deadlineTone, formatDay } from './notificationsView.ts';

export interface NotificationsTableProps {
  items: readonly Notification[];
  sortby: NotificationSortField;
  sortdir: 'asc' | 'desc';
  onSort: (column: NotificationSortField) => void;
  onOpen: (notification: Notification) => void;
  /** Shown in place of the rows when there are none. */
  empty: ReactNode;
}

const stateTone = (estado: Notification['estado']) => (estado === 'pendiente' ? 'warning' : estado === 'rechazada' || estado === 'expirada' ? 'danger' : 'success');

/** The caducidad as its day and the days left, in words and colour (a comunicación has no deadline). */
export function Deadline({ notification, now }: { notification: Notification; now?: Date }) {
  if (notification.caducidad === null) return <span aria-label={text.comunicacion}>{text.noDeadline}</span>;
  const day = formatDay(notification.caducidad);
  if (notification.estado !== 'pendiente') return <span>{day}</span>;
  const days = daysLeft(notification.caducidad, now);
  return (
    <span className="notifications-deadline">
      {day} <span className={`ui-chip ui-chip--${deadlineTone(days)}`}>{text.daysLeft(days)}</span>
    </span>
  );
}

/**
 * The page of notifications the server sent: each header sorts on the server (aria-sort; a new column
 * starts descending). Below 640 px each row lays out as a compact card: titular and state, concepto,
 * organismo and procedure, the dates with their labels, and 'Abrir'.
 */
export function NotificationsTable({ items, sortby, sortdir, onSort, onOpen, empty }: NotificationsTableProps) {
  const cells: { key: string; label: string; render: (item: Notification) => ReactNode }[] = [
    { key: 'titular', label: text.columns.titular, render: (item) => <><span className="notifications-table__name">{item.titular}</span> <span className="ui-muted">{item.titularNif}</span></> },
    { key: 'organoEmisor', label: text.columns.organoEmisor, render: (item) => item.organoEmisor },
    { key: 'codProcedimiento', label: text.columns.codProcedimiento, render: (item) => item.codProcedimiento ?? '—' },
    { key: 'concepto', label: text.columns.concepto, render: (item) => item.concepto },
    { key: 'disposicion', label: text.columns.disposicion, render: (item) => formatDay(item.disposicion) },
    { key: 'caducidad', label: text.columns.caducidad, render: (item) => <Deadline notification={item} /> },
    { key: 'estado', label: text.estadoColumn, render: (item) => <span className={`ui-chip ui-chip--${stateTone(item.estado)}`}>{text.states[item.estado]}</span> },
  ];
  return (
    <div className="ui-table-wrap notifications-table-wrap">
      <table className="ui-table notifications-table">
        <caption className="ui-visually-hidden">{text.caption}</caption>
        <thead>
          <tr>
            {NOTIFICATION_SORT_FIELDS.map((column) => {
              const sorted = column === sortby;
              const Icon = !sorted ? IconChevronUpDown : sortdir === 'asc' ? IconChevronUp : IconChevronDown;
              return (
                <th key={column} scope="col" aria-sort={sorted ? (sortdir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="ui-table__sort" onClick={() => onSort(column)}>
                    {text.columns[column]}
                    <Icon size={14} className="ui-table__sort-icon" />
                  </button>
                </th>
              );
            })}
            <th scope="col">{text.estadoColumn}</th>
            <th scope="col"><span className="ui-visually-hidden">{text.actionsColumn}</span></th>
          </tr>
        </thead>
        <tbody>
          {items.length === 0 && (
            <tr>
              <td colSpan={cells.length + 1} className="ui-table__empty">{empty}</td>
            </tr>
          )}
          {items.map((item) => (
            // The row is a pointer shortcut; the 'Abrir' button is the keyboard's (and the screen reader's) way.
            <tr key={item._id} className="ui-table__row notifications-table__row" onClick={() => onOpen(item)}>
              {cells.map((cell) => (
                <td key={cell.key} data-label={cell.label} className={`notifications-table__${cell.key}`}>{cell.render(item)}</td>
              ))}
              <td className="notifications-table__actions">
                <button
                  type="button"
                  className="ui-button ui-button--secondary"
                  aria-label={text.openLabel(item.concepto, item.titular)}
                  onClick={(event) => {
                    event.stopPropagation();
                    onOpen(item);
                  }}
                >
                  {text.open}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
