import { Link } from 'react-router-dom';
import { TICKET_CATEGORY_LABELS, TICKET_STATUS_LABELS } from '#shared/api/support.ts';
import type { Ticket, TicketStatus } from '#shared/api/support.ts';
import { support } from '../i18n/es-support.ts';
import { ticketTime } from './TicketThread.tsx';
import './support.css';

const text = support.list;

const STATUS_TONE: Record<TicketStatus, string> = { open: 'ui-chip--warning', answered: 'ui-chip--success', closed: '' };

export function TicketStatusChip({ status }: { status: TicketStatus }) {
  return <span className={`ui-chip ${STATUS_TONE[status]}`.trim()}>{TICKET_STATUS_LABELS[status]}</span>;
}

export interface TicketListProps {
  tickets: readonly Ticket[];
  /** The link that opens a ticket. */
  hrefFor: (ticket: Ticket) => string;
  /** What a row says about its unread messages (answers for the firm, user messages for the team). */
  unreadText: (count: number) => string;
  /** The support team sees which firm asked. */
  showFirm?: boolean;
}

/** Tickets as rows that wrap on a narrow screen: the subject opens it; the rest describes it. */
export function TicketList({ tickets, hrefFor, unreadText, showFirm = false }: TicketListProps) {
  return (
    <ul className="support-tickets">
      {tickets.map((ticket) => (
        <li key={ticket.id} className={ticket.unread > 0 ? 'support-ticket support-ticket--unread' : 'support-ticket'}>
          <div className="support-ticket__main">
            <Link to={hrefFor(ticket)} className="support-ticket__subject">{ticket.subject}</Link>
            {ticket.unread > 0 && <span className="ui-chip ui-chip--notice">{unreadText(ticket.unread)}</span>}
          </div>
          <dl className="support-ticket__facts">
            {showFirm && ticket.firmName !== undefined && (
              <div><dt>{support.desk.firm}</dt><dd>{ticket.firmName}</dd></div>
            )}
            <div><dt>{text.category}</dt><dd>{TICKET_CATEGORY_LABELS[ticket.category]}</dd></div>
            <div><dt>{text.status}</dt><dd><TicketStatusChip status={ticket.status} /></dd></div>
            <div><dt>{text.openedBy}</dt><dd>{ticket.openedBy.name}</dd></div>
            <div><dt>{text.lastActivity}</dt><dd><time dateTime={ticket.updatedAt}>{ticketTime(ticket.updatedAt)}</time></dd></div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
