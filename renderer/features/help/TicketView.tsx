import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { TICKET_CATEGORY_LABELS } from '#shared/api/support.ts';
import type { NewReply, Ticket } from '#shared/api/support.ts';
import { attachmentUrl, uploadAttachment, useReplyMutation, useTicketQuery } from '../../api/support.ts';
import { support } from '../../i18n/es-support.ts';
import { asHttpError, errorMessage } from '../../ui/forms.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { ReplyForm } from '../../ui/ReplyForm.tsx';
import { runHistoryHref } from '../../ui/runHistoryHref.ts';
import { TicketStatusChip } from '../../ui/TicketList.tsx';
import { TicketThread, ticketTime } from '../../ui/TicketThread.tsx';
import { helpLinks, refusal } from './supportLinks.ts';

const text = support.ticket;

function TicketFacts({ ticket }: { ticket: Ticket }) {
  return (
    <dl className="support-facts">
      <div><dt>{text.status}</dt><dd><TicketStatusChip status={ticket.status} /></dd></div>
      <div><dt>{text.category}</dt><dd>{TICKET_CATEGORY_LABELS[ticket.category]}</dd></div>
      {ticket.run && (
        <div>
          <dt>{text.run}</dt>
          <dd>{support.form.runOption(ticket.run.robot, ticketTime(ticket.run.createdAt))} · <Link to={runHistoryHref(ticket.run)}>{text.seeHistory}</Link></dd>
        </div>
      )}
      <div><dd>{text.openedBy(ticket.openedBy.name, ticketTime(ticket.createdAt))}</dd></div>
    </dl>
  );
}

/**
 * One of the firm's tickets: its facts, the thread and the reply box. Reading it clears its unread
 * answers on the server (the list and the menu badge refresh); the heading takes the focus when it opens.
 */
export function TicketView({ id }: { id: string }) {
  const { data: ticket, isLoading, isError, error, refetch } = useTicketQuery(id);
  const [reply] = useReplyMutation();
  const heading = useRef<HTMLHeadingElement>(null);
  const loadedId = ticket?.id;

  useEffect(() => {
    if (loadedId !== undefined) heading.current?.focus();
  }, [loadedId]);

  const send = async (body: NewReply) => {
    try {
      await reply({ id, reply: body }).unwrap();
    } catch (failure) {
      throw refusal(failure, support.reply.failed);
    }
  };

  return (
    <section className="ui-card ui-section support-page" aria-labelledby="help-ticket-title">
      <Link to={helpLinks.list()}>{text.back}</Link>
      {isLoading ? (
        <Spinner label={text.loading} />
      ) : isError || !ticket ? (
        <div role="alert" className="ui-inline-error">
          <p>{asHttpError(error)?.status === 404 ? errorMessage(error, text.notFound) : text.failed}</p>
          {asHttpError(error)?.status !== 404 && <Button variant="ghost" onClick={() => void refetch()}>{support.list.retry}</Button>}
        </div>
      ) : (
        <>
          <h2 id="help-ticket-title" ref={heading} tabIndex={-1} className="ui-section__title support-heading support-subject">{ticket.subject}</h2>
          <TicketFacts ticket={ticket} />
          <TicketThread messages={ticket.messages ?? []} attachmentHref={(fileId) => attachmentUrl(ticket.id, fileId, 'firm')} />
          <ReplyForm onSend={send} upload={uploadAttachment} note={support.reply.reopenNote} />
        </>
      )}
    </section>
  );
}
