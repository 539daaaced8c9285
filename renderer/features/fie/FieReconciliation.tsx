import { useState, type ReactNode } from 'react';
import type { ReconciliationRow } from '#shared/api/fie.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table } from '../../ui/Table.tsx';
import type { TableColumn } from '../../ui/Table.tsx';
import { useFieReconciliationQuery } from './fieApi.ts';
import { formatCcc, formatDay } from './fieRows.ts';

const t = text.reconciliation;

/** A cell with its column's name, which fie.css shows above the value when the rows are cards (narrow widths). */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return <span className="fie-cell" data-label={label}>{children}</span>;
}

const columns: TableColumn<ReconciliationRow>[] = [
  {
    key: 'worker',
    header: t.worker,
    // By surname ('PEÑA LÓPEZ, MARÍA'), as the server sends them.
    sortValue: (row) => row.sortName,
    filterValue: (row) => `${row.fullname} ${row.nif} ${row.companyName ?? ''} ${row.ccc ?? ''}`,
    render: (row) => (
      <span className="fie-recon__worker">
        <span className="fie-recon__name">{row.fullname}</span>
        <span className="ui-muted">{row.nif}</span>
      </span>
    ),
  },
  {
    key: 'company',
    header: t.company,
    sortValue: (row) => row.companyName ?? '',
    render: (row) => (
      <Cell label={t.company}>
        {row.companyName ?? text.list.none}
        {row.ccc && <span className="ui-muted"> · {formatCcc(row.ccc)}</span>}
      </Cell>
    ),
  },
  { key: 'since', header: t.since, sortValue: (row) => row.leaveStart ?? '', render: (row) => <Cell label={t.since}>{formatDay(row.leaveStart)}</Cell> },
  {
    key: 'daysOpen',
    header: t.daysOpen,
    sortValue: (row) => row.daysOpen ?? 0,
    render: (row) => <Cell label={t.daysOpen}>{row.daysOpen === null ? text.list.none : text.list.days(row.daysOpen)}</Cell>,
  },
  {
    key: 'inA3',
    header: t.inA3,
    sortValue: (row) => (row.a3sync === 'synced' ? 1 : 0),
    render: (row) => (
      <Cell label={t.inA3}>
        <span className={`fie-a3 fie-a3--${row.a3sync}`}>{row.a3sync === 'synced' ? t.yes : `${t.no} · ${text.a3States[row.a3sync]}`}</span>
      </Cell>
    ),
  },
  { key: 'pending', header: t.pending, sortValue: (row) => row.pendingEntries, render: (row) => <Cell label={t.pending}>{row.pendingEntries}</Cell> },
];

/** 'Conciliación con A3': each worker with an open baja, since when, whether A3 has it, and how many of their entries A3 lacks. */
export function FieReconciliation() {
  const { data, isLoading, isError, isFetching, refetch } = useFieReconciliationQuery();
  const [search, setSearch] = useState('');
  return (
    <section className="ui-card ui-section fie-recon" aria-label={t.caption} aria-busy={isFetching || undefined}>
      <p className="ui-muted fie-recon__intro">{t.intro}</p>
      {data && data.length > 0 && (
        <div className="fie-recon__search" role="search" aria-label={t.search}>
          <SearchInput label={t.search} placeholder={text.filters.searchPlaceholder} value={search} debounceMs={200} onSearch={setSearch} />
        </div>
      )}
      {isLoading && <Spinner label={t.loading} />}
      {isError && (
        <div role="alert" className="ui-inline-error">
          <p>{t.failed}</p>
          <Button variant="ghost" onClick={() => void refetch()}>{text.list.retry}</Button>
        </div>
      )}
      {data && <Table caption={t.caption} columns={columns} rows={data} rowKey={(row) => row.entryId} emptyMessage={search.trim() === '' ? t.empty : t.noMatches} search={search} initialSort={{ key: 'worker', direction: 'ascending' }} />}
    </section>
  );
}
