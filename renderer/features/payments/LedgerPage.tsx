import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { LedgerEntry, UsageReport, UsageReportQuery } from '#shared/api/billing.ts';
import { formatCredits, formatMoney } from '#shared/billing/index.ts';
import { useLazyUsageReportQuery, usageReportExportUrl, useUsageReportQuery } from '../../api/billing.ts';
import { useSession } from '../../app/hooks.ts';
import { Button, EmptyState, ErrorBanner, LoadingImage, PageHeader, Spinner } from '../../ui/index.ts';
import { DateRangeFields } from '../../ui/DateRangeFields.tsx';
import { isBadDayRange } from '../../ui/dayRange.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { LedgerTable } from './LedgerTable.tsx';
import { LoadError } from './LoadError.tsx';
import { ledgerQuery } from './ledgerModel.ts';
import type { LedgerRange } from './ledgerModel.ts';
import { formatDay } from './paymentsModel.ts';
import './payments.css';

const text = billing.ledger;

/**
 * Detalle del consumo (/payments/consumo): the credit ledger of a period, line by line, so a firm can
 * check its invoice. The current period unless 'Desde' / 'Hasta' say otherwise; 50 lines a page.
 */
export default function LedgerPage() {
  const currencies = useSession().user?.group.config.currencies;
  const [range, setRange] = useState<LedgerRange>({ from: '', to: '' });
  const query = ledgerQuery(range);
  const report = useUsageReportQuery(query);
  const badRange = isBadDayRange(range);
  const picked = range.from !== '' || range.to !== '';

  let content;
  if (report.isLoading) content = <LoadingImage />;
  else if (report.isError || !report.data)
    content = <LoadError error={report.error} fallback={text.loadFailed} onRetry={() => void report.refetch()} />;
  else
    content = (
      // A new period starts the pages again.
      <LedgerReport key={JSON.stringify(query)} report={report.data} query={query} currencies={currencies} current={!picked} />
    );

  return (
    <main className="ui-page payments">
      <PageHeader title={text.title} />
      <p><Link to="/payments">{text.back}</Link></p>
      <div className="payments-sections">
        <section className="ui-card ui-section" aria-label={text.periodChoice}>
          <div className="ledger-period">
            <DateRangeFields range={range} onChange={(field, value) => setRange({ ...range, [field]: value })} labels={{ from: text.from, to: text.to }} errorId="ledger-range-error" />
            {picked && <Button variant="ghost" onClick={() => setRange({ from: '', to: '' })}>{text.showCurrent}</Button>}
            <a className="app-link-button" href={usageReportExportUrl(query)} download>{text.export}</a>
            {badRange && <p id="ledger-range-error" className="ledger-period__error" role="alert">{text.badRange}</p>}
            {report.isFetching && !report.isLoading && <Spinner size="small" />}
          </div>
        </section>
        {content}
      </div>
    </main>
  );
}

interface LedgerReportProps {
  report: UsageReport;
  query: Omit<UsageReportQuery, 'cursor'>;
  currencies: string | undefined;
  current: boolean;
}

/** The period, its totals and its movements, with 'Cargar más' while the server has more. */
function LedgerReport({ report, query, currencies, current }: LedgerReportProps) {
  const [loadMore, { isFetching: loading }] = useLazyUsageReportQuery();
  const [more, setMore] = useState<LedgerEntry[]>([]);
  const [cursor, setCursor] = useState(report.nextCursor);
  const [error, setError] = useState<string | null>(null);
  const { totals, period } = report;
  const entries = [...report.items, ...more];
  const periodText = (current ? text.currentPeriod : text.period)(formatDay(period.from), formatDay(period.to));

  const next = async () => {
    if (cursor === null) return;
    setError(null);
    try {
      const page = await loadMore({ ...query, cursor }).unwrap();
      setMore((shown) => [...shown, ...page.items]);
      setCursor(page.nextCursor);
    } catch (failure) {
      setError(billingErrorMessage(failure, text.moreFailed));
    }
  };

  return (
    <>
      <section className="ui-card ui-section" aria-labelledby="ledger-totals-title">
        <h2 id="ledger-totals-title" className="ui-section__title">{text.totals}</h2>
        <p className="payments-note">{periodText}</p>
        <dl className="ledger-totals">
          <div><dt>{text.charged}</dt><dd>{formatCredits(totals.charged, currencies)}</dd></div>
          <div><dt>{text.credited}</dt><dd>{formatCredits(totals.credited, currencies)}</dd></div>
          <div><dt>{text.runs}</dt><dd>{totals.runs}</dd></div>
          <div><dt>{text.extra}</dt><dd>{text.extraValue(formatCredits(totals.extraSlans, currencies), formatMoney(totals.extraPrice))}</dd></div>
        </dl>
      </section>
      <section className="ui-card ui-section" aria-labelledby="ledger-entries-title">
        <h2 id="ledger-entries-title" className="ui-section__title">{text.tableLabel}</h2>
        {entries.length === 0 ? (
          <EmptyState title={text.empty} text={text.emptyText} headingLevel={3} />
        ) : (
          <LedgerTable entries={entries} currencies={currencies} />
        )}
        <ErrorBanner data={{ hasError: error !== null, msg: error ?? undefined }} onDismiss={() => setError(null)} />
        {cursor !== null && (
          <div className="ledger-more">
            <Button variant="secondary" loading={loading} onClick={() => void next()}>{text.more}</Button>
          </div>
        )}
      </section>
    </>
  );
}
