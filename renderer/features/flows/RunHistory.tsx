import { useMemo, useState } from 'react';
import { HISTORY_PAGE_SIZE } from '#shared/api/flows.ts';
import type { FlowlogQuery } from '#shared/api/flows.ts';
import { useFlowlogQuery, useFlowlogReportMutation } from '../../api/flows.ts';
import { useToast } from '../../app/hooks.ts';
import { flows } from '../../i18n/es-flows.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { Table } from '../../ui/Table.tsx';
import type { TableColumn } from '../../ui/Table.tsx';
import { SegmentedFilter } from '../../ui/Tabs.tsx';
import type { Choice } from '../../ui/Tabs.tsx';
import { toHistoryRow } from './historyRows.ts';
import type { HistoryRow } from './historyRows.ts';
import { LoadFailed } from './LoadSection.tsx';
import { RunLogDetail } from './RunLogDetail.tsx';
import { XLSX_MIME, base64ToBytes, saveBytes } from './saveFile.ts';

const text = flows.history;

type HistoryFilter = 'all' | 'manual' | 'scheduled';

const filters: readonly Choice<HistoryFilter>[] = [
  { value: 'all', label: text.filters.all },
  { value: 'manual', label: text.filters.manual },
  { value: 'scheduled', label: text.filters.scheduled },
];

/** Todos: no filter; Manuales: scheduled=false; Programados y remotos: scheduled=true. */
const scheduledParam: Record<HistoryFilter, FlowlogQuery['scheduled']> = { all: undefined, manual: 'false', scheduled: 'true' };

const columns: readonly TableColumn<HistoryRow>[] = [
  {
    key: 'robot',
    header: text.columns.robot,
    render: (row) => (
      <span className="flows-run">
        <span className={row.robotKnown ? 'flows-run__robot' : 'flows-run__robot flows-run__robot--gone'}>{row.robot}</span>
        <span className="ui-chip">{row.launchType}</span>
        {row.machine && <span className="ui-muted flows-run__machine">{text.onMachine(row.machine)}</span>}
      </span>
    ),
  },
  // Date and time wrap onto two lines where the table is narrow.
  { key: 'date', header: text.columns.date, render: (row) => row.date },
  { key: 'result', header: text.columns.result, render: (row) => <span className={`flows-result flows-result--${row.result.tone}`}>{row.result.label}</span> },
  { key: 'cost', header: text.columns.cost, render: (row) => <span className="flows-nowrap">{row.cost}</span> },
  {
    key: 'iterations',
    header: text.columns.iterations,
    render: (row) =>
      row.iterations === null ? (
        text.noIterations
      ) : (
        <span className={row.iterations.low ? 'flows-ratio flows-ratio--low' : 'flows-ratio'} title={row.iterations.low ? text.lowRatio : undefined}>
          <span>{row.iterations.count}</span> <span className="flows-ratio__percentage">{row.iterations.percentage}</span>
          {row.iterations.low && <span className="ui-visually-hidden">. {text.lowRatio}</span>}
        </span>
      ),
  },
];

/** 'Historial de robots': the group's runs, 12 a page as the server cuts them, with filters, log and report. */
export function RunHistory({ currencies }: { currencies: string | undefined }) {
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const [page, setPage] = useState(0);
  const scheduled = scheduledParam[filter];
  const { data, isLoading, isFetching, isError, refetch } = useFlowlogQuery({ start: page * HISTORY_PAGE_SIZE, limit: HISTORY_PAGE_SIZE, scheduled });
  const [requestReport, { isLoading: reporting }] = useFlowlogReportMutation();
  const toast = useToast();
  const rows = useMemo(() => (data?.items ?? []).map((log) => toHistoryRow(log, currencies)), [data, currencies]);
  const pageCount = Math.max(1, Math.ceil((data?.total ?? 0) / HISTORY_PAGE_SIZE));

  const changeFilter = (next: HistoryFilter) => {
    setFilter(next);
    setPage(0);
  };

  const downloadReport = async () => {
    try {
      const report = await requestReport({ scheduled }).unwrap();
      saveBytes(base64ToBytes(report.base64), report.filename, XLSX_MIME);
    } catch {
      toast.error(text.reportFailed);
    }
  };

  return (
    <section className="ui-card ui-section flows-history" aria-labelledby="flows-history-title">
      <div className="ui-section__head">
        <h2 id="flows-history-title" className="ui-section__title">{text.title}</h2>
        <Button variant="secondary" loading={reporting} disabled={!data || data.total === 0} onClick={() => void downloadReport()}>
          {text.report}
        </Button>
      </div>
      <div className="flows-history__bar">
        <SegmentedFilter label={text.filterLabel} options={filters} value={filter} onChange={changeFilter} />
        <span className="ui-muted flows-history__total" aria-live="polite">
          {isFetching ? <Spinner size="small" label={text.loading} /> : data && text.total(data.total)}
        </span>
      </div>
      {isError && <LoadFailed text={text.failed} onRetry={() => void refetch()} />}
      <div aria-busy={isFetching || undefined}>
        <Table
          caption={text.title}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          emptyMessage={isLoading ? text.loading : isError ? '' : text.empty}
          renderExpanded={(row) => <RunLogDetail runId={row.id} />}
          serverPages={{ page, pageCount, onPageChange: setPage }}
        />
      </div>
    </section>
  );
}
