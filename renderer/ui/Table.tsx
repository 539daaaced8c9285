import { Fragment, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { widgets } from '../i18n/es-screens.ts';
import { IconChevronDown, IconChevronRight, IconChevronUp, IconChevronUpDown } from './icons.tsx';
import { Pagination } from './Pagination.tsx';
import { DEFAULT_PAGE_SIZE, nextSort, pageCountOf, pageOf, sortRows } from './tableModel.ts';
import type { SortDirection, SortState, SortValue } from './tableModel.ts';

export interface TableColumn<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  /** Columns with a sort value get a sort button in their header. */
  sortValue?: (row: Row) => SortValue;
}

export interface TableProps<Row> {
  /** Names the table for screen readers. */
  caption: string;
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Shown in place of the rows when there are none, e.g. 'No se han encontrado registros'. */
  emptyMessage: ReactNode;
  pageSize?: number;
  initialSort?: SortState;
  /** When given, each row gets a button that shows this content below it. */
  renderExpanded?: (row: Row) => ReactNode;
}

/** Up or down on the sorted column; a faint up-down pair on the others, so they read as sortable. */
function SortIcon({ direction }: { direction: SortDirection | undefined }) {
  const Icon = direction === 'ascending' ? IconChevronUp : direction === 'descending' ? IconChevronDown : IconChevronUpDown;
  return <Icon size={14} className="ui-table__sort-icon" />;
}

export function Table<Row>({ caption, columns, rows, rowKey, emptyMessage, pageSize = DEFAULT_PAGE_SIZE, initialSort, renderExpanded }: TableProps<Row>) {
  const [sort, setSort] = useState<SortState | null>(initialSort ?? null);
  const [page, setPage] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  const sorted = useMemo(() => {
    const column = sort && columns.find((candidate) => candidate.key === sort.key);
    return column?.sortValue && sort ? sortRows(rows, column.sortValue, sort.direction) : [...rows];
  }, [rows, columns, sort]);
  const pageCount = pageCountOf(sorted.length, pageSize);
  // When rows shrink (a filter, a deletion) the page shown stays within range.
  const currentPage = Math.min(page, pageCount - 1);
  const visible = pageOf(sorted, currentPage, pageSize);
  const columnCount = columns.length + (renderExpanded ? 1 : 0);

  const toggleRow = (key: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <div className="ui-table-wrap">
      <table className="ui-table">
        <caption className="ui-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {renderExpanded && <th scope="col"><span className="ui-visually-hidden">{widgets.rowDetail}</span></th>}
            {columns.map((column) => {
              const direction = sort?.key === column.key ? sort.direction : undefined;
              return (
                <th key={column.key} scope="col" aria-sort={column.sortValue ? (direction ?? 'none') : undefined}>
                  {column.sortValue ? (
                    <button
                      type="button"
                      className="ui-table__sort"
                      onClick={() => {
                        setSort(nextSort(sort, column.key));
                        setPage(0);
                      }}
                    >
                      {column.header}
                      <SortIcon direction={direction} />
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {visible.length === 0 && (
            <tr>
              <td colSpan={columnCount} className="ui-table__empty">{emptyMessage}</td>
            </tr>
          )}
          {visible.map((row) => {
            const key = rowKey(row);
            const isOpen = expanded.has(key);
            return (
              <Fragment key={key}>
                <tr className={isOpen ? 'ui-table__row ui-table__row--open' : 'ui-table__row'}>
                  {renderExpanded && (
                    <td className="ui-table__expander">
                      <button
                        type="button"
                        className="ui-icon-button"
                        aria-expanded={isOpen}
                        aria-controls={`detail-${key}`}
                        aria-label={isOpen ? widgets.hideDetail : widgets.showDetail}
                        onClick={() => toggleRow(key)}
                      >
                        {isOpen ? <IconChevronDown size={18} /> : <IconChevronRight size={18} />}
                      </button>
                    </td>
                  )}
                  {columns.map((column) => (
                    <td key={column.key}>{column.render(row)}</td>
                  ))}
                </tr>
                {renderExpanded && isOpen && (
                  <tr id={`detail-${key}`} className="ui-table__detail">
                    <td colSpan={columnCount}>{renderExpanded(row)}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      <Pagination page={currentPage} pageCount={pageCount} onPageChange={setPage} />
    </div>
  );
}
