import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { NOTIFICATION_VIEWS, NOTIFICATIONS_PAGE_SIZES } from '#shared/api/notifications.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { Button, EmptyState, PageHeader } from '../../ui/index.ts';
import { Pagination } from '../../ui/Pagination.tsx';
import { SegmentedFilter } from '../../ui/Tabs.tsx';
import { NotificationOpen } from './NotificationOpen.tsx';
import { NotificationsConfig } from './NotificationsConfig.tsx';
import { NotificationsFilters } from './NotificationsFilters.tsx';
import { NotificationsTable } from './NotificationsTable.tsx';
import { UpdatePanel } from './UpdatePanel.tsx';
import { useNotificationsQuery, useNotificationsSummaryQuery, useWatchedCertificatesQuery } from '../../api/notifications.ts';
import { hasFilters, nextSort, readView, toQuery, writeView } from './notificationsView.ts';
import type { NotificationsViewState } from './notificationsView.ts';
import { useOpenNotification } from './useOpenNotification.ts';
import './notifications.css';

type Section = 'list' | 'config';
const SECTIONS = [
  { value: 'list', label: text.sections.list },
  { value: 'config', label: text.sections.config },
] as const;

/**
 * /notifications (spec §2): the DEHÚ notifications of the watched certificates, server-paginated and
 * sorted, with the whole view in the address; or the configuration of which certificates to watch.
 */
export default function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const section: Section = params.get('section') === 'config' ? 'config' : 'list';
  const setSection = (next: Section) =>
    setParams((previous) => {
      const copy = new URLSearchParams(previous);
      if (next === 'config') copy.set('section', 'config');
      else copy.delete('section');
      return copy;
    });

  return (
    <main className="ui-page notifications-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      <SegmentedFilter label={text.sectionsLabel} options={SECTIONS} value={section} onChange={setSection} />
      {section === 'config' ? <NotificationsConfig /> : <NotificationsList params={params} setParams={setParams} onConfigure={() => setSection('config')} />}
    </main>
  );
}

interface ListProps {
  params: URLSearchParams;
  setParams: ReturnType<typeof useSearchParams>[1];
  onConfigure: () => void;
}

function NotificationsList({ params, setParams, onConfigure }: ListProps) {
  const view = readView(params);
  const list = useNotificationsQuery(toQuery(view));
  const summary = useNotificationsSummaryQuery();
  const watched = useWatchedCertificatesQuery();
  const opening = useOpenNotification();

  // Every change but a page turn goes back to page 1; typing replaces the address entry instead of piling up history.
  const change = (partial: Partial<NotificationsViewState>) => {
    const next: NotificationsViewState = { ...view, page: 1, ...partial };
    setParams(writeView(next), { replace: true });
  };

  // A page past the end (an old link, the last notifications gone): the server served its last page; the address follows (issue 43).
  const servedPage = list.currentData?.page;
  useEffect(() => {
    if (servedPage !== undefined && servedPage !== view.page) setParams(writeView({ ...view, page: servedPage }), { replace: true });
  }, [servedPage, view, setParams]);

  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / view.pageSize));
  const neverUpdated = summary.data?.lastUpdateAt === null || watched.data?.length === 0;
  const empty = hasFilters(view) ? (
    <EmptyState headingLevel={3} title={text.empty.noResults} text={text.empty.noResultsText} />
  ) : neverUpdated ? (
    <EmptyState headingLevel={3} title={text.empty.never} text={text.empty.neverText} action={<Button onClick={onConfigure}>{text.empty.toConfig}</Button>} />
  ) : (
    <EmptyState headingLevel={3} title={text.empty.noneInView} />
  );

  return (
    <>
      <UpdatePanel />
      <div className="notifications-toolbar">
        <SegmentedFilter label={text.viewsLabel} options={NOTIFICATION_VIEWS.map((value) => ({ value, label: text.views[value] }))} value={view.view} onChange={(value) => change({ view: value })} />
        <NotificationsFilters view={view} onChange={change} />
      </div>
      {list.isError ? (
        <p role="alert">{text.loadFailed}</p>
      ) : list.data === undefined ? (
        <div className="notifications-skeleton" role="status" aria-label={text.loading}>
          {Array.from({ length: 5 }, (_, index) => <div key={index} className="notifications-skeleton__row" />)}
        </div>
      ) : (
        <>
          <p className="ui-muted notifications-total" aria-live="polite">{text.total(total)}</p>
          <NotificationsTable
            items={list.data.items}
            sortby={view.sortby}
            sortdir={view.sortdir}
            onSort={(column) => change(nextSort(view, column))}
            onOpen={(notification) => void opening.open(notification)}
            empty={empty}
          />
          <div className="notifications-pages">
            <Pagination page={Math.min(view.page, pageCount) - 1} pageCount={pageCount} onPageChange={(page) => change({ page: page + 1 })} />
            <label className="notifications-pages__size">
              <span>{text.pageSize}</span>
              <select className="ui-input" value={view.pageSize} onChange={(event) => change({ pageSize: Number(event.target.value) })}>
                {NOTIFICATIONS_PAGE_SIZES.map((size) => <option key={size} value={size}>{size}</option>)}
              </select>
            </label>
          </div>
        </>
      )}
      <NotificationOpen step={opening.step} onConfirm={() => void opening.confirm()} onClose={opening.close} machineName={opening.machineName} />
    </>
  );
}
