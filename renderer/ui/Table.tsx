import { Fragment, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { getCoreRowModel, getFilteredRowModel, getPaginationRowModel, useReactTable } from '@tanstack/react-table';
import type { PaginationState, Row as TableRow, SortingState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { widgets } from '../i18n/es-screens.ts';
import { IconChevronDown, IconChevronRight, IconChevronUp, IconChevronUpDown } from './icons.tsx';
import { Pagination } from './Pagination.tsx';
import { DEFAULT_PAGE_SIZE, getFlatSortedRowModel, searchOptions, toColumnDefs, toSortingState } from './tableModel.ts';
import type { ColumnSpec, SortDirection, SortState } from './tableModel.ts';

export interface TableColumn<Row> extends ColumnSpec<Row> {
  render: (row: Row) => ReactNode;
  /** The header is for screen readers only: a column of buttons that name what they act on takes no width for its title. */
  headerHidden?: boolean;
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
  /** Text from the screen's search box: rows must contain every word (accents and case ignored). */
  search?: string;
  /**
   * For long lists (run history, FIE entries): all rows in one box of this height that scrolls,
   * only the rows in view rendered (TanStack Virtual), instead of pages.
   */
  virtual?: { height: number; rowHeight?: number };
  /** When given, each row gets a button that shows this content below it (paged tables only). */
  renderExpanded?: (row: Row) => ReactNode;
  /**
   * Pages cut by the server (run history): `rows` is the page shown, as it comes, and the pagination
   * under the table asks the caller for another page instead of slicing the rows itself.
   */
  serverPages?: ServerPages;
}

export interface ServerPages {
  /** Zero-based index of the page shown. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

/** Up or down on the sorted column; a faint up-down pair on the others, so they read as sortable. */
function SortIcon({ direction }: { direction: SortDirection | undefined }) {
  const Icon = direction === 'ascending' ? IconChevronUp : direction === 'descending' ? IconChevronDown : IconChevronUpDown;
  return <Icon size={14} className="ui-table__sort-icon" />;
}

/**
 * A data table on TanStack Table: sortable headers (aria-sort), a search over the searchable columns,
 * and either pages or virtual rows. It scrolls sideways inside its card on narrow screens.
 */
export function Table<Row>({ caption, columns, rows, rowKey, emptyMessage, pageSize = DEFAULT_PAGE_SIZE, initialSort, search = '', virtual, renderExpanded, serverPages }: TableProps<Row>) {
  const [sorting, setSorting] = useState<SortingState>(() => toSortingState(initialSort));
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // A new search starts from the first page (React's "adjust state when a prop changes").
  const [searchShown, setSearchShown] = useState(search);
  if (searchShown !== search) {
    setSearchShown(search);
    setPagination((previous) => ({ ...previous, pageIndex: 0 }));
  }
  // Virtual rows and server pages show every row they are given: no client-side pages.
  const allRows = virtual !== undefined || serverPages !== undefined;
  const columnDefs = useMemo(() => toColumnDefs(columns), [columns]);
  const search$ = useMemo(() => searchOptions(columns), [columns]);

  const table = useReactTable<Row>({
    data: rows as Row[],
    columns: columnDefs,
    state: { sorting, globalFilter: search, pagination: allRows ? { pageIndex: 0, pageSize: Math.max(1, rows.length) } : pagination },
    onSortingChange: (updater) => {
      setSorting(updater);
      setPagination((previous) => ({ ...previous, pageIndex: 0 }));
    },
    onPaginationChange: setPagination,
    // New rows (a reload, a deletion) start from the first page too.
    autoResetPageIndex: true,
    enableSortingRemoval: false,
    ...search$,
    getRowId: (row) => rowKey(row),
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getFlatSortedRowModel(),
    getPaginationRowModel: allRows ? undefined : getPaginationRowModel(),
  });

  const shown = allRows ? table.getRowModel().rows : table.getPaginationRowModel().rows;
  const columnCount = columns.length + (renderExpanded && !virtual ? 1 : 0);
  const byKey = useMemo(() => new Map(columns.map((column) => [column.key, column])), [columns]);

  const toggleRow = (key: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const head = (
    <thead>
      <tr>
        {renderExpanded && !virtual && (
          <th scope="col">
            <span className="ui-visually-hidden">{widgets.rowDetail}</span>
          </th>
        )}
        {table.getFlatHeaders().map((header) => {
          const column = header.column;
          const sorted = column.getIsSorted();
          const direction: SortDirection | undefined = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
          const label = byKey.get(column.id)?.header ?? column.id;
          return (
            <th key={header.id} scope="col" aria-sort={column.getCanSort() ? (direction ?? 'none') : undefined}>
              {column.getCanSort() ? (
                <button
                  type="button"
                  className="ui-table__sort"
                  // Unsorted and descending columns go ascending; ascending flips to descending.
                  onClick={() => column.toggleSorting(sorted === 'asc')}
                >
                  {label}
                  <SortIcon direction={direction} />
                </button>
              ) : byKey.get(column.id)?.headerHidden ? (
                <span className="ui-visually-hidden">{label}</span>
              ) : (
                label
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );

  const cells = (row: TableRow<Row>) => columns.map((column) => <td key={column.key}>{column.render(row.original)}</td>);
  const empty = (
    <tr>
      <td colSpan={columnCount} className="ui-table__empty">
        {emptyMessage}
      </td>
    </tr>
  );

  if (virtual) {
    return (
      <VirtualBody caption={caption} head={head} rows={shown} columnCount={columnCount} height={virtual.height} rowHeight={virtual.rowHeight ?? 41} empty={empty} cells={cells} />
    );
  }

  return (
    <div className="ui-table-wrap">
      <table className="ui-table">
        <caption className="ui-visually-hidden">{caption}</caption>
        {head}
        <tbody>
          {shown.length === 0 && empty}
          {shown.map((row) => {
            const key = row.id;
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
                  {cells(row)}
                </tr>
                {renderExpanded && isOpen && (
                  <tr id={`detail-${key}`} className="ui-table__detail">
                    <td colSpan={columnCount}>{renderExpanded(row.original)}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {serverPages ? (
        <Pagination page={serverPages.page} pageCount={serverPages.pageCount} onPageChange={serverPages.onPageChange} />
      ) : (
        <Pagination page={table.getState().pagination.pageIndex} pageCount={Math.max(1, table.getPageCount())} onPageChange={(page) => table.setPageIndex(page)} />
      )}
    </div>
  );
}

interface VirtualBodyProps<Row> {
  caption: string;
  head: ReactNode;
  rows: TableRow<Row>[];
  columnCount: number;
  height: number;
  rowHeight: number;
  empty: ReactNode;
  cells: (row: TableRow<Row>) => ReactNode;
}

/**
 * Only the rows in view (plus a few) are in the DOM; spacer rows keep the scroll height, so the
 * markup stays a real table. aria-rowcount/aria-rowindex tell screen readers where they are.
 */
function VirtualBody<Row>({ caption, head, rows, columnCount, height, rowHeight, empty, cells }: VirtualBodyProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  return (
    <div ref={scrollRef} className="ui-table-wrap ui-table-wrap--virtual" style={{ maxHeight: height }}>
      <table className="ui-table" aria-rowcount={rows.length + 1}>
        <caption className="ui-visually-hidden">{caption}</caption>
        {head}
        <tbody>
          {rows.length === 0 && empty}
          {before > 0 && (
            <tr aria-hidden="true" className="ui-table__spacer">
              <td colSpan={columnCount} style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <tr key={row.id} className="ui-table__row" aria-rowindex={item.index + 2} style={{ height: rowHeight }}>
                {cells(row)}
              </tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden="true" className="ui-table__spacer">
              <td colSpan={columnCount} style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
