import { createTable, getCoreRowModel, getFilteredRowModel, getMemoOptions, getPaginationRowModel, memo } from '@tanstack/react-table';
import type { ColumnDef, FilterFn, Row as TanStackRow, RowModel, SortingState, Table, TableOptionsResolved } from '@tanstack/react-table';

/**
 * What the Table widget hands to TanStack Table: column definitions with Spanish ordering and
 * blanks-last sorting, and an accent- and case-blind global filter. The widget and the benchmark
 * (scripts/bench/table-bench.ts) build their tables from these, so the bench measures what users get.
 */

export type SortDirection = 'ascending' | 'descending';
export type SortValue = string | number | Date | null | undefined;

export interface SortState {
  key: string;
  direction: SortDirection;
}

/** A column as screens describe it; `render` stays in the widget (the model needs no React). */
export interface ColumnSpec<Row> {
  key: string;
  header: string;
  /** Columns with a sort value can be sorted from their header. */
  sortValue?: (row: Row) => SortValue;
  /** Text the search box matches; defaults to the sort value when it is text or a number. */
  filterValue?: (row: Row) => string;
}

export const DEFAULT_PAGE_SIZE = 12;

function isBlank(value: SortValue): value is null | undefined | '' {
  return value === null || value === undefined || value === '';
}

/** Lower case without accents, so 'garcia' finds 'GARCÍA'. */
export function searchText(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

// Normalised cell text per row object and column: a search re-runs on every keystroke over up to 10^5
// rows, and normalising each cell once instead of per keystroke keeps that within budget.
const searchCache = new WeakMap<object, Map<string, string>>();

/** One computed string per row object and column, kept as long as the row lives. */
function memoPerCell(cache: WeakMap<object, Map<string, string>>, row: object, columnId: string, compute: () => string): string {
  let cells = cache.get(row);
  if (!cells) {
    cells = new Map();
    cache.set(row, cells);
  }
  let text = cells.get(columnId);
  if (text === undefined) {
    text = compute();
    cells.set(columnId, text);
  }
  return text;
}

function cachedSearchText(row: unknown, columnId: string, raw: () => string): string {
  if (typeof row !== 'object' || row === null) return searchText(raw());
  return memoPerCell(searchCache, row, columnId, () => searchText(raw()));
}

/** The global filter: every word typed must appear in one of the row's searchable columns. */
export function makeSearchFilter<Row>(columns: readonly ColumnSpec<Row>[]): FilterFn<Row> {
  const searchable = columns.flatMap((column) => {
    const { filterValue, sortValue } = column;
    if (filterValue) return [{ key: column.key, text: filterValue }];
    if (!sortValue) return [];
    return [
      {
        key: column.key,
        text: (row: Row) => {
          const value = sortValue(row);
          return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
        },
      },
    ];
  });
  const filter: FilterFn<Row> = (row, _columnId, query: string[]) =>
    query.every((word) => searchable.some((column) => cachedSearchText(row.original, column.key, () => column.text(row.original)).includes(word)));
  // TanStack calls the global filter once per column; the row-level check above needs only one call.
  filter.resolveFilterValue = (value: string) => searchText(value).split(/\s+/).filter(Boolean);
  filter.autoRemove = (value: unknown) => typeof value !== 'string' || value.trim() === '';
  return filter;
}

/**
 * A key whose plain `<` order is Spanish collation (Intl.Collator 'es', base, numeric): case and accents ignored,
 * ñ between n and o, numbers inside text compared by value. Intl.Collator per comparison made
 * sorting 10^4 rows several times slower; keys are computed once per cell instead.
 */
export function textSortKey(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/n\u0303/g, 'n~')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(16, '0'));
}

const sortKeyCache = new WeakMap<object, Map<string, string>>();

function cachedSortKey(row: object, columnId: string, value: string): string {
  return memoPerCell(sortKeyCache, row, columnId, () => textSortKey(value));
}

/** A cell's sort value as a primitive that compares with `<`: text as its key, dates as time; blanks undefined. */
function sortPrimitive<Row>(row: TanStackRow<Row>, columnId: string): string | number | undefined {
  const value = row.getValue<SortValue>(columnId);
  if (isBlank(value)) return undefined;
  if (typeof value === 'string') {
    return typeof row.original === 'object' && row.original !== null ? cachedSortKey(row.original, columnId, value) : textSortKey(value);
  }
  return value instanceof Date ? value.getTime() : value;
}

function comparePrimitives(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const aText = String(a);
  const bText = String(b);
  return aText < bText ? -1 : aText > bText ? 1 : 0;
}

/**
 * The sorted row model, on TanStack's memo like its own getSortedRowModel, for flat lists. TanStack's
 * copies every row object and looks each value up again per comparison; at 10^4-10^5 rows that was
 * most of a sort. Here each row's sort values are read once, then compared as primitives. Blanks go
 * last in both directions; ties keep their order (Array.prototype.sort is stable).
 */
export function getFlatSortedRowModel<Row>(): (table: Table<Row>) => () => RowModel<Row> {
  return (table) =>
    memo(
      () => [table.getState().sorting, table.getPreSortedRowModel()],
      (sorting, rowModel) => {
        const entries = sorting.filter((sort) => table.getColumn(sort.id)?.getCanSort());
        if (rowModel.rows.length === 0 || entries.length === 0) return rowModel;
        const decorated = rowModel.rows.map((row) => ({ row, values: entries.map((sort) => sortPrimitive(row, sort.id)) }));
        decorated.sort((a, b) => {
          for (let index = 0; index < entries.length; index += 1) {
            const aValue = a.values[index];
            const bValue = b.values[index];
            if (aValue === undefined || bValue === undefined) {
              if (aValue === bValue) continue;
              return aValue === undefined ? 1 : -1;
            }
            const order = comparePrimitives(aValue, bValue);
            if (order !== 0) return entries[index]?.desc ? -order : order;
          }
          return 0;
        });
        const rows = decorated.map(({ row }) => row);
        return { rows, flatRows: rows, rowsById: rowModel.rowsById };
      },
      getMemoOptions(table.options, 'debugTable', 'getSortedRowModel'),
    );
}

export function toColumnDefs<Row>(columns: readonly ColumnSpec<Row>[]): ColumnDef<Row, SortValue>[] {
  return columns.map((column, index) => {
    const { sortValue } = column;
    return {
      id: column.key,
      header: column.header,
      // Blank values become undefined so `sortUndefined: 'last'` keeps them at the end in both directions.
      accessorFn: (row: Row) => {
        const value = sortValue?.(row);
        return isBlank(value) ? undefined : value;
      },
      enableSorting: Boolean(sortValue),
      // Ordering itself is getFlatSortedRowModel's (blanks last, Spanish text keys).
      sortUndefined: 'last',
      // The row-level search is answered on the first column only (see makeSearchFilter).
      enableGlobalFilter: index === 0,
    } satisfies ColumnDef<Row, SortValue>;
  });
}

/** Table options for the search: our filter, asked once per row (on the column that carries it). */
export function searchOptions<Row>(columns: readonly ColumnSpec<Row>[]) {
  return {
    globalFilterFn: makeSearchFilter(columns),
    getColumnCanGlobalFilter: (column: { columnDef: { enableGlobalFilter?: boolean } }) => column.columnDef.enableGlobalFilter === true,
  };
}

export function toSortingState(sort: SortState | null | undefined): SortingState {
  return sort ? [{ id: sort.key, desc: sort.direction === 'descending' }] : [];
}

export interface TableModelInput<Row> {
  rows: readonly Row[];
  columns: readonly ColumnSpec<Row>[];
  sort?: SortState | null;
  search?: string;
  pageSize?: number;
}

/** A headless TanStack table (no React, no DOM): what the benchmark and the model tests drive. */
export function createTableModel<Row>({ rows, columns, sort, search = '', pageSize = DEFAULT_PAGE_SIZE }: TableModelInput<Row>): Table<Row> {
  let state = {
    sorting: toSortingState(sort),
    globalFilter: search,
    pagination: { pageIndex: 0, pageSize },
  };
  const options: TableOptionsResolved<Row> = {
    data: rows as Row[],
    columns: toColumnDefs(columns),
    state,
    onStateChange: (updater) => {
      state = { ...state, ...(typeof updater === 'function' ? updater(table.getState()) : updater) };
      table.setOptions((previous) => ({ ...previous, state }));
    },
    renderFallbackValue: null,
    // Auto resets queue a microtask that holds the table: a synchronous caller (the bench) would keep
    // every table it built alive until it returns.
    autoResetAll: false,
    ...searchOptions(columns),
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getFlatSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
  };
  const table = createTable(options);
  table.setOptions((previous) => ({ ...previous, state: { ...table.initialState, ...state } }));
  return table;
}
