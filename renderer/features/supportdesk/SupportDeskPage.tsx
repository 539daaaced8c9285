import { Link, useSearchParams } from 'react-router-dom';
import { TICKET_STATUSES } from '#shared/api/support.ts';
import type { TicketStatus } from '#shared/api/support.ts';
import { useDeskTicketsQuery } from '../../api/support.ts';
import { useSession } from '../../app/hooks.ts';
import { es } from '../../i18n/es-core.ts';
import { support } from '../../i18n/es-support.ts';
import { asHttpError } from '../../ui/forms.ts';
import { Button, EmptyState, PageHeader, Spinner } from '../../ui/index.ts';
import { Pagination } from '../../ui/Pagination.tsx';
import { SegmentedFilter } from '../../ui/Tabs.tsx';
import { TicketList } from '../../ui/TicketList.tsx';
import { DeskTicket } from './DeskTicket.tsx';

const text = support.desk;

/** What anyone outside the support team sees here: the page does not exist for them. */
function DeskNotFound() {
  return (
    <main className="app-not-found">
      <h1>{text.notFoundTitle}</h1>
      <p>{es.notFound.body}</p>
      <Link to="/" className="app-link-button">{es.notFound.goHome}</Link>
    </main>
  );
}

const isStatus = (value: string | null): value is TicketStatus => TICKET_STATUSES.some((status) => status === value);

/** The desk's view in its query: ?estado= (open by default), ?pagina=, and ?consulta= for one ticket. */
function useDeskView() {
  const [params, setParams] = useSearchParams();
  const state = params.get('estado');
  const status: TicketStatus = isStatus(state) ? state : 'open';
  const page = Math.max(1, Number.parseInt(params.get('pagina') ?? '1', 10) || 1);
  const listQuery = (next: { status: TicketStatus; page: number }) => {
    const query = new URLSearchParams({ estado: next.status });
    if (next.page > 1) query.set('pagina', String(next.page));
    return query;
  };
  return {
    status, page, ticketId: params.get('consulta'),
    backTo: `/soporte?${listQuery({ status, page }).toString()}`,
    show: (next: { status: TicketStatus; page: number }) => setParams(listQuery(next)),
    ticketHref: (id: string) => `/soporte?${listQuery({ status, page }).toString()}&consulta=${encodeURIComponent(id)}`,
  };
}

function DeskList({ view }: { view: ReturnType<typeof useDeskView> }) {
  const { status, page, show, ticketHref } = view;
  const { data, isLoading, isError, isFetching, refetch } = useDeskTicketsQuery({ status, page });
  return (
    <section className="ui-card ui-section support-page" aria-label={text.filters[status]} aria-busy={isFetching || undefined}>
      <SegmentedFilter
        label={text.filter}
        options={TICKET_STATUSES.map((value) => ({ value, label: text.filters[value] }))}
        value={status}
        onChange={(next) => show({ status: next, page: 1 })}
      />
      {isLoading ? (
        <Spinner label={text.loading} />
      ) : isError || !data ? (
        <div role="alert" className="ui-inline-error">
          <p>{text.failed}</p>
          <Button variant="ghost" onClick={() => void refetch()}>{support.list.retry}</Button>
        </div>
      ) : data.total === 0 ? (
        <EmptyState title={text.empty[status]} headingLevel={2} />
      ) : (
        <>
          <TicketList tickets={data.items} hrefFor={(ticket) => ticketHref(ticket.id)} unreadText={text.unreadFromUser} showFirm />
          <Pagination page={data.page - 1} pageCount={data.pageCount} onPageChange={(index) => show({ status, page: index + 1 })} />
        </>
      )}
    </section>
  );
}

/**
 * /soporte, the support team's desk (users.support_agent): every firm's tickets by status, and one
 * ticket's thread with the answer box. Anyone else, or a server that answers 404, gets a not-found page.
 */
export default function SupportDeskPage() {
  const { user } = useSession();
  const view = useDeskView();
  const agent = user?.supportAgent === true;
  // The server has the last word: its 404 means this user is not on the team (any more).
  const { error } = useDeskTicketsQuery({ status: view.status, page: view.page }, { skip: !agent });
  if (!agent || asHttpError(error)?.status === 404) return <DeskNotFound />;

  return (
    <main className="ui-page support-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      {view.ticketId ? <DeskTicket key={view.ticketId} id={view.ticketId} backTo={view.backTo} /> : <DeskList view={view} />}
    </main>
  );
}
