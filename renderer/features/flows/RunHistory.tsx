import { useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { HISTORY_PAGE_SIZE } from '#shared/api/flows.ts';
import type { FlowSummary, FlowlogQuery } from '#shared/api/flows.ts';
import { useFlowlogQuery, useFlowlogReportMutation, useStopExecutionMutation } from '../../api/flows.ts';
import { useToast } from '../../app/hooks.ts';
import { flows } from '../../i18n/es-flows.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DateRangeFields } from '../../ui/DateRangeFields.tsx';
import { isBadDayRange } from '../../ui/dayRange.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';
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

/** How long the search box waits for typing to pause before it asks the server. */
export const SEARCH_DEBOUNCE_MS = 350;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The view's filters as the URL holds them (?q=&robot=&desde=&hasta=&tipo=), so a reload keeps the view. */
interface HistoryView {
  q: string;
  robot: string;
  from: string;
  to: string;
  kind: HistoryFilter;
}

function readView(params: URLSearchParams): HistoryView {
  const kind = params.get('tipo');
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    q: params.get('q') ?? '',
    robot: params.get('robot') ?? '',
    from: day('desde'),
    to: day('hasta'),
    kind: kind === 'manual' || kind === 'scheduled' ? kind : 'all',
  };
}

const URL_KEYS: Record<keyof HistoryView, string> = { q: 'q', robot: 'robot', from: 'desde', to: 'hasta', kind: 'tipo' };

/** 'Hasta' before 'Desde': the screen says so, and the query leaves 'Hasta' out. */

/** The flowlog query of a view: only what is set. */
function viewQuery(view: HistoryView): Omit<FlowlogQuery, 'start' | 'limit'> {
  const badRange = isBadDayRange(view);
  return {
    scheduled: scheduledParam[view.kind],
    ...(view.q.trim() !== '' && { q: view.q.trim() }),
    ...(view.robot !== '' && { flow: view.robot }),
    ...(view.from !== '' && { from: view.from }),
    ...(view.to !== '' && !badRange && { to: view.to }),
  };
}

/** A cell's value with its column's name, which flows.css shows above it when the rows are cards (narrow widths). */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return <span className="flows-cell" data-label={label}>{children}</span>;
}

function baseColumns(onAction: (row: HistoryRow) => void): TableColumn<HistoryRow>[] {
  return [
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
  { key: 'date', header: text.columns.date, render: (row) => <Cell label={text.columns.date}>{row.date}</Cell> },
  {
    key: 'result',
    header: text.columns.result,
    render: (row) => <Cell label={text.columns.result}><span className={`flows-result flows-result--${row.result.tone}`}>{row.result.label}</span></Cell>,
  },
  { key: 'duration', header: text.columns.duration, render: (row) => <Cell label={text.columns.duration}><span className="flows-nowrap">{row.duration}</span></Cell> },
  { key: 'cost', header: text.columns.cost, render: (row) => <Cell label={text.columns.cost}><span className="flows-nowrap">{row.cost}</span></Cell> },
  {
    key: 'iterations',
    header: text.columns.iterations,
    render: (row) => (
      <Cell label={text.columns.iterations}>
        {row.iterations === null ? (
          text.noIterations
        ) : (
          <span className={row.iterations.low ? 'flows-ratio flows-ratio--low' : 'flows-ratio'} title={row.iterations.low ? text.lowRatio : undefined}>
            <span>{row.iterations.count}</span> <span className="flows-ratio__percentage">{row.iterations.percentage}</span>
            {row.iterations.low && <span className="ui-visually-hidden">. {text.lowRatio}</span>}
          </span>
        )}
      </Cell>
    ),
  },
  {
    key: 'actions',
    header: text.columns.actions,
    // Empty but for a run not yet ended, whose button says what it does: the title would only widen the table.
    headerHidden: true,
    render: (row) =>
      row.action && (
        <Button
          variant="secondary"
          aria-label={row.action.kind === 'cancel' ? text.cancelLabel(row.robot) : text.stopLabel(row.robot)}
          onClick={() => onAction(row)}
        >
          {row.action.kind === 'cancel' ? text.cancel : text.stop}
        </Button>
      ),
  },
  ];
}

/**
 * 'Historial de robots': the group's runs, 12 a page as the server cuts them, with filters (robot name
 * search, robot, launch kind, date range: all in the URL), duration, log, report, and 'Cancelar' for a
 * queued run or 'Detener' for a running one. Narrow, each run is a card (flows.css).
 */
export function RunHistory({ currencies, robots }: { currencies: string | undefined; robots?: readonly FlowSummary[] | undefined }) {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const [page, setPage] = useState(0);
  const query = viewQuery(view);
  const badRange = isBadDayRange(view);
  const { data, isLoading, isFetching, isError, refetch } = useFlowlogQuery({ start: page * HISTORY_PAGE_SIZE, limit: HISTORY_PAGE_SIZE, ...query });
  const [requestReport, { isLoading: reporting }] = useFlowlogReportMutation();
  const [stopExecution, { isLoading: stopping }] = useStopExecutionMutation();
  const [confirming, setConfirming] = useState<HistoryRow | null>(null);
  const toast = useToast();
  const rows = useMemo(() => (data?.items ?? []).map((log) => toHistoryRow(log, currencies)), [data, currencies]);
  const columns = useMemo(() => baseColumns(setConfirming), []);
  const pageCount = Math.max(1, Math.ceil((data?.total ?? 0) / HISTORY_PAGE_SIZE));
  const filtered = view.q !== '' || view.robot !== '' || view.from !== '' || view.to !== '';

  /** Writes one filter to the URL (replacing the entry: typing is not history) and goes back to the first page. */
  const setFilter = (key: keyof HistoryView, value: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '' || (key === 'kind' && value === 'all')) next.delete(URL_KEYS[key]);
        else next.set(URL_KEYS[key], value);
        return next;
      },
      { replace: true },
    );
    setPage(0);
  };

  const clearFilters = () => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of ['q', 'robot', 'desde', 'hasta']) next.delete(key);
        return next;
      },
      { replace: true },
    );
    setPage(0);
  };

  const downloadReport = async () => {
    try {
      const report = await requestReport(query).unwrap();
      saveBytes(base64ToBytes(report.base64), report.filename, XLSX_MIME);
    } catch {
      toast.error(text.reportFailed);
    }
  };

  const confirmAction = async () => {
    const row = confirming;
    if (!row?.action) return;
    try {
      await stopExecution(row.action.token).unwrap();
      toast.success(row.action.kind === 'cancel' ? text.cancelled : text.stopped);
    } catch {
      toast.error(text.stopFailed);
    } finally {
      setConfirming(null);
    }
  };
  const confirmText = confirming?.action?.kind === 'stop' ? text.confirmStop : text.confirmCancel;

  return (
    <section className="ui-card ui-section flows-history" aria-labelledby="flows-history-title">
      <div className="ui-section__head">
        <h2 id="flows-history-title" className="ui-section__title">{text.title}</h2>
        <Button variant="secondary" loading={reporting} disabled={!data || data.total === 0} onClick={() => void downloadReport()}>
          {text.report}
        </Button>
      </div>
      <div className="flows-history__filters">
        <SearchInput label={text.search} value={view.q} debounceMs={SEARCH_DEBOUNCE_MS} onSearch={(value) => setFilter('q', value)} />
        <label className="flows-history__field">
          <span>{text.robotFilter}</span>
          <select className="ui-input" value={view.robot} onChange={(event) => setFilter('robot', event.target.value)}>
            <option value="">{text.allRobots}</option>
            {view.robot !== '' && !robots?.some((robot) => robot.id === view.robot) && <option value={view.robot}>{view.robot}</option>}
            {robots?.map((robot) => (
              <option key={robot.id} value={robot.id}>{robot.name}</option>
            ))}
          </select>
        </label>
        <DateRangeFields range={view} onChange={setFilter} labels={{ from: text.from, to: text.to }} errorId="flows-history-range-error" fieldClassName="flows-history__field" />
        {filtered && (
          <Button variant="ghost" onClick={clearFilters}>{text.clearFilters}</Button>
        )}
      </div>
      {badRange && <p id="flows-history-range-error" className="flows-history__error" role="alert">{text.badRange}</p>}
      <div className="flows-history__bar">
        <SegmentedFilter label={text.filterLabel} options={filters} value={view.kind} onChange={(next) => setFilter('kind', next)} />
        <span className="ui-muted flows-history__total" aria-live="polite">
          {isFetching ? <Spinner size="small" label={text.loading} /> : data && (data.totalCapped ? text.moreThan(data.total) : text.total(data.total))}
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
      <ConfirmDialog
        open={confirming !== null}
        title={confirmText.title}
        text={confirmText.text}
        confirmLabel={confirmText.confirm}
        busy={stopping}
        onConfirm={() => void confirmAction()}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
