import { Link, useSearchParams } from 'react-router-dom';
import { DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE, DOCUMENT_MANAGER_PAGE_SIZE } from '#shared/api/documentmanager.ts';
import { useManagedDocumentsQuery } from '../../api/documentManager.ts';
import { areas } from '../../i18n/es-screens.ts';
import { documanager as text } from '../../i18n/es-documanager.ts';
import { Button, EmptyState, IconFolder, PageHeader } from '../../ui/index.ts';
import { asHttpError } from '../../ui/forms.ts';
import { Pagination } from '../../ui/Pagination.tsx';
import { DocumentFilters } from './DocumentFilters.tsx';
import { DocumentsTable } from './DocumentsTable.tsx';
import { hasFilters, readView, toQuery, writeView } from './documanagerView.ts';
import type { DocumentManagerView } from './documanagerView.ts';
import './documanager.css';

/**
 * /documanager (issue 40 §4): every document the firm holds — generated, signed submissions, robots'
 * outputs, altas attachments, FIE, DEHÚ — by kind and client company, searchable, server-paged, with
 * how long each is kept and its download. The whole view lives in the address.
 */
export default function DocumentManagerPage() {
  const [params, setParams] = useSearchParams();
  const view = readView(params);
  const list = useManagedDocumentsQuery(toQuery(view));

  // Every change but a page turn goes back to page 1; typing replaces the address entry instead of piling up history.
  const change = (partial: Partial<DocumentManagerView>) => setParams(writeView({ ...view, page: 1, ...partial }), { replace: true });
  const turnPage = (page: number) => setParams(writeView({ ...view, page }));

  const notEnabled = asHttpError(list.error)?.status === 403;
  const total = list.data?.total ?? 0;
  const pageSize = list.data?.pageSize ?? DOCUMENT_MANAGER_PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));

  if (notEnabled) {
    return (
      <main className="ui-page documanager-page">
        <PageHeader title={areas.documanager.title} />
        <EmptyState
          icon={<IconFolder />}
          title={text.notEnabledTitle}
          text={DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE}
          action={<Link className="ui-button ui-button--secondary" to="/userprofile">{text.toSettings}</Link>}
        />
      </main>
    );
  }

  // A page past the end (an old link) says so too, and the button takes the user back to the start.
  const empty = hasFilters(view) || view.page > 1 ? (
    <EmptyState headingLevel={3} title={text.empty.noResults} text={text.empty.noResultsText} action={<Button variant="secondary" onClick={() => change({ kind: '', company: '', q: '' })}>{text.clear}</Button>} />
  ) : (
    <EmptyState headingLevel={3} icon={<IconFolder />} title={text.empty.title} text={text.empty.text} />
  );

  return (
    <main className="ui-page documanager-page">
      <PageHeader title={areas.documanager.title} subtitle={text.subtitle} />
      <DocumentFilters view={view} onChange={change} />
      {list.isError && !list.data ? (
        <div role="alert" className="app-form__alert documanager-error">
          <p>{text.loadFailed}</p>
          <Button variant="secondary" onClick={() => void list.refetch()}>{text.retry}</Button>
        </div>
      ) : list.data === undefined ? (
        <div className="documanager-skeleton" role="status" aria-label={text.loading}>
          {Array.from({ length: 5 }, (_, index) => <div key={index} className="documanager-skeleton__row" />)}
        </div>
      ) : (
        <>
          <p className="ui-muted documanager-total" aria-live="polite">{text.total(total)}</p>
          <DocumentsTable items={list.data.items} empty={empty} />
          <Pagination page={view.page - 1} pageCount={pageCount} onPageChange={(page) => turnPage(page + 1)} />
        </>
      )}
    </main>
  );
}
