import { useMemo, useSyncExternalStore } from 'react';
import type { ExpiringCertificate } from '#shared/api/machines.ts';
import { formatMadridDate } from '#shared/time/index.ts';
import { useExpiringCertificatesQuery } from '../../api/machines.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, EmptyState, IconCheck, Spinner } from '../../ui/index.ts';
import { Table } from '../../ui/Table.tsx';
import type { TableColumn } from '../../ui/Table.tsx';
import { countByThreshold } from './workspaceModel.ts';

const text = workspace.radar;
const RADAR_DAYS = 60;

/** The same colours as the certificate rows (ui/CertificateItem): red to a week or expired, amber to a month. */
function toneOf(threshold: number): 'danger' | 'warning' | 'notice' {
  return threshold <= 7 ? 'danger' : threshold <= 30 ? 'warning' : 'notice';
}

function thresholdLabel(threshold: number): string {
  return text.thresholds[threshold] ?? text.thresholds[60] ?? '';
}

// The days left come second, coloured by threshold, so they read first after the name (also on a phone's cards).
const columns: readonly TableColumn<ExpiringCertificate>[] = [
  { key: 'name', header: text.columns.name, sortValue: (item) => item.subject.CN, render: (item) => <span className="workspace-radar__name">{item.subject.CN}</span> },
  {
    key: 'daysLeft',
    header: text.columns.daysLeft,
    sortValue: (item) => item.daysLeft,
    render: (item) => <span className={`ui-chip ui-chip--${toneOf(item.threshold)}`}>{text.daysLeft(item.daysLeft)}</span>,
  },
  {
    key: 'expires',
    header: text.columns.expires,
    sortValue: (item) => new Date(item.notAfter),
    filterValue: (item) => formatMadridDate(new Date(item.notAfter)),
    render: (item) => <span className="workspace-nowrap">{formatMadridDate(new Date(item.notAfter))}</span>,
  },
  { key: 'nif', header: text.columns.nif, sortValue: (item) => item.nifVat, render: (item) => <span className="workspace-radar__nif">{item.nifVat ?? text.noNif}</span> },
  { key: 'machine', header: text.columns.machine, sortValue: (item) => item.machine.name, render: (item) => item.machine.name },
  { key: 'threshold', header: text.columns.threshold, sortValue: (item) => item.threshold, render: (item) => <span className="workspace-nowrap">{thresholdLabel(item.threshold)}</span> },
];

/** Below this width the six columns do not fit: each certificate shows as a card with every field. */
const NARROW = '(max-width: 640px)';

function subscribeNarrow(onChange: () => void): () => void {
  const query = window.matchMedia?.(NARROW);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}
const isNarrow = () => window.matchMedia?.(NARROW).matches ?? false;

/** Whether the screen is phone-narrow, following resizes and rotations. */
function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
}

/**
 * A phone's view of the radar (issue 21: the table hid columns with no hint): one card per
 * certificate, every column's field labelled in it, soonest first as the table sorts them.
 */
function RadarCards({ items }: { items: readonly ExpiringCertificate[] }) {
  const sorted = useMemo(() => [...items].sort((a, b) => a.daysLeft - b.daysLeft), [items]);
  const fields = columns.filter((column) => column.key !== 'name');
  return (
    <ul className="workspace-radar__cards" aria-label={text.caption}>
      {sorted.map((item) => (
        <li key={item._id} className="workspace-radar__card">
          <h3 className="workspace-radar__card-title workspace-radar__name">{item.subject.CN}</h3>
          <dl className="workspace-radar__fields">
            {fields.map((column) => (
              <div key={column.key} className="workspace-radar__field">
                <dt>{column.header}</dt>
                <dd>{column.render(item)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}

/**
 * 'Caducidades': every synced certificate the user can see that expires within 60 days or expired
 * lately (the server's radar), soonest first, with a count per threshold above the table.
 */
export function ExpiryRadar() {
  const { data, isLoading, isError, refetch } = useExpiringCertificatesQuery({ days: RADAR_DAYS });
  const narrow = useNarrow();
  const counts = useMemo(() => countByThreshold(data?.items ?? []), [data]);

  if (isLoading) return <Spinner label={text.loading} />;
  if (isError || !data) {
    return (
      <div role="alert" className="ui-inline-error">
        <p>{text.failed}</p>
        <Button variant="ghost" onClick={() => void refetch()}>{workspace.retry}</Button>
      </div>
    );
  }
  if (data.items.length === 0) return <EmptyState icon={<IconCheck />} title={text.empty} text={text.emptyHint} />;

  return (
    <section className="ui-card ui-section workspace-radar" aria-labelledby="workspace-radar-title">
      <h2 id="workspace-radar-title" className="ui-section__title">{text.title}</h2>
      <ul className="workspace-radar__summary" aria-label={text.summaryLabel}>
        {counts.map(({ threshold, count }) => (
          <li key={threshold} className={`ui-chip ui-chip--${toneOf(threshold)}`}>
            {text.summary(thresholdLabel(threshold), count)}
          </li>
        ))}
      </ul>
      {narrow ? <RadarCards items={data.items} /> : (
      <Table
        caption={text.caption}
        columns={columns}
        rows={data.items}
        rowKey={(item) => item._id}
        emptyMessage={text.empty}
        initialSort={{ key: 'daysLeft', direction: 'ascending' }}
        pageSize={25}
      />
      )}
    </section>
  );
}
