import type { ReactNode } from 'react';
import { MANAGED_DOCUMENT_KIND_LABELS } from '#shared/api/documentmanager.ts';
import type { ManagedDocument } from '#shared/api/documentmanager.ts';
import { formatBytes } from '#shared/files/size.ts';
import { documanager as text } from '../../i18n/es-documanager.ts';
import { formatCreatedAt, retentionText } from './documanagerView.ts';

export interface DocumentsTableProps {
  items: readonly ManagedDocument[];
  /** Shown in place of the rows when there are none. */
  empty: ReactNode;
}

const cells: { key: string; label: string; render: (item: ManagedDocument) => ReactNode }[] = [
  // What it comes from goes under its name: one column fewer keeps the table inside 1366 px.
  {
    key: 'name',
    label: text.columns.name,
    render: (item) => (
      <>
        <span className="documanager-table__title">{item.name}</span>
        <span className="documanager-table__source"><span className="ui-visually-hidden">{text.columns.source}: </span>{item.source}</span>
      </>
    ),
  },
  { key: 'kind', label: text.columns.kind, render: (item) => <span className="ui-chip">{MANAGED_DOCUMENT_KIND_LABELS[item.kind]}</span> },
  { key: 'company', label: text.columns.company, render: (item) => item.company ?? <span className="ui-muted">{text.noCompany}</span> },
  { key: 'size', label: text.columns.size, render: (item) => (item.size === null ? text.noSize : formatBytes(item.size)) },
  { key: 'createdAt', label: text.columns.createdAt, render: (item) => <time dateTime={item.createdAt}>{formatCreatedAt(item.createdAt)}</time> },
  { key: 'retention', label: text.columns.retention, render: (item) => retentionText(item) },
];

/**
 * One page of the firm's documents, as the server sent it (newest first). Below 640 px each row lays
 * out as a card with its cells labelled, as the notifications table does.
 */
export function DocumentsTable({ items, empty }: DocumentsTableProps) {
  return (
    <div className="ui-table-wrap documanager-table-wrap">
      <table className="ui-table documanager-table">
        <caption className="ui-visually-hidden">{text.caption}</caption>
        <thead>
          <tr>
            {cells.map((cell) => <th key={cell.key} scope="col">{cell.label}</th>)}
            <th scope="col"><span className="ui-visually-hidden">{text.columns.download}</span></th>
          </tr>
        </thead>
        <tbody>
          {items.length === 0 && (
            <tr>
              <td colSpan={cells.length + 1} className="ui-table__empty">{empty}</td>
            </tr>
          )}
          {items.map((item) => (
            <tr key={item.key} className="documanager-table__row">
              {cells.map((cell) => <td key={cell.key} data-label={cell.label} className={`documanager-table__${cell.key}`}>{cell.render(item)}</td>)}
              <td className="documanager-table__actions">
                {item.downloadPath ? (
                  <a className="ui-button ui-button--secondary documanager-table__download" href={item.downloadPath} download aria-label={text.downloadLabel(item.name)}>
                    {text.download}
                  </a>
                ) : (
                  <span className="ui-muted">{text.notDownloadable}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
