import { useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { areas, screens } from '../../i18n/es-screens.ts';
import { EmptyState, IconRobot, PageHeader } from '../../ui/index.ts';
import { SegmentedFilter } from '../../ui/Tabs.tsx';
import type { Choice } from '../../ui/Tabs.tsx';
import { Table } from '../../ui/Table.tsx';
import type { TableColumn } from '../../ui/Table.tsx';

const text = screens.flows;

type HistoryFilter = 'all' | 'manual' | 'scheduled';

const filters: readonly Choice<HistoryFilter>[] = [
  { value: 'all', label: text.filters.all },
  { value: 'manual', label: text.filters.manual },
  { value: 'scheduled', label: text.filters.scheduled },
];

/** One robot run as the history table shows it. */
interface HistoryRow {
  id: string;
  robot: string;
  date: string;
  result: string;
  cost: string;
}

const columns: readonly TableColumn<HistoryRow>[] = [
  { key: 'robot', header: text.columns.robot, render: (row) => row.robot },
  { key: 'date', header: text.columns.date, render: (row) => row.date },
  { key: 'result', header: text.columns.result, render: (row) => row.result },
  { key: 'cost', header: text.columns.cost, render: (row) => row.cost },
];

// This version has no run history to load yet, so the table honestly shows its empty message.
const noRuns: readonly HistoryRow[] = [];

export default function FlowsPage() {
  const { id } = useParams();
  const [filter, setFilter] = useState<HistoryFilter>('all');

  // No flow can be found in this version, so any id is invalid and is cleared (spec §2).
  if (id) return <Navigate to="/flows" replace />;

  return (
    <main className="ui-page">
      <PageHeader title={areas.flows.title} />
      <EmptyState icon={<IconRobot />} title={screens.comingSoonTitle} text={`${areas.flows.summary} ${text.listNotAvailable}`} />
      <section className="ui-card ui-section" aria-labelledby="flows-history-title">
        <div className="ui-section__head">
          <h2 id="flows-history-title" className="ui-section__title">{text.historyTitle}</h2>
          <SegmentedFilter label={text.historyFilterLabel} options={filters} value={filter} onChange={setFilter} />
        </div>
        <Table caption={text.historyTitle} columns={columns} rows={noRuns} rowKey={(row) => row.id} emptyMessage={text.emptyHistory} />
      </section>
    </main>
  );
}
