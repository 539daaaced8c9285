import { Link } from 'react-router-dom';
import { useTicketsQuery, useUnreadAnswersQuery } from '../../api/support.ts';
import { support } from '../../i18n/es-support.ts';
import { Button, EmptyState, IconHelp, Spinner } from '../../ui/index.ts';
import { Pagination } from '../../ui/Pagination.tsx';
import { TicketList } from '../../ui/TicketList.tsx';
import { helpLinks } from './supportLinks.ts';

const text = support.list;

/**
 * 'Mis consultas': the firm's tickets, most recently active first, ten a page; a line on top when
 * support has answered something nobody has read yet.
 */
export function MyTickets({ page, onPageChange }: { page: number; onPageChange: (page: number) => void }) {
  const { data, isLoading, isError, isFetching, refetch } = useTicketsQuery({ page });
  const { data: unread = 0 } = useUnreadAnswersQuery();

  return (
    <section className="ui-card ui-section support-page" aria-labelledby="help-tickets-title" aria-busy={isFetching || undefined}>
      <div className="ui-section__head">
        <h2 id="help-tickets-title" className="ui-section__title">{text.title}</h2>
        {data && data.total > 0 && (
          <Link to={helpLinks.newTicket} className="app-link-button">{text.newTicket}</Link>
        )}
      </div>
      {unread > 0 && <p className="support-summary" role="status">{text.unreadSummary(unread)}</p>}
      {isLoading ? (
        <Spinner label={text.loading} />
      ) : isError || !data ? (
        <div role="alert" className="ui-inline-error">
          <p>{text.failed}</p>
          <Button variant="ghost" onClick={() => void refetch()}>{text.retry}</Button>
        </div>
      ) : data.total === 0 ? (
        <EmptyState
          title={text.empty}
          text={text.emptyText}
          icon={<IconHelp />}
          headingLevel={3}
          action={<Link to={helpLinks.newTicket} className="app-link-button">{text.newTicket}</Link>}
        />
      ) : (
        <>
          <TicketList tickets={data.items} hrefFor={(ticket) => helpLinks.ticket(ticket.id)} unreadText={text.newAnswers} />
          <Pagination page={data.page - 1} pageCount={data.pageCount} onPageChange={(index) => onPageChange(index + 1)} />
        </>
      )}
    </section>
  );
}
