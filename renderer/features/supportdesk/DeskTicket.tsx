import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { TICKET_CATEGORY_LABELS } from '#shared/api/support.ts';
import type { NewReply, Ticket } from '#shared/api/support.ts';
import { runStatus } from '#shared/runlogs/index.ts';
import { attachmentUrl, uploadAttachment, useDeskReplyMutation, useDeskStatusMutation, useDeskTicketQuery } from '../../api/support.ts';
import { useToast } from '../../app/hooks.ts';
import { support } from '../../i18n/es-support.ts';
import { asHttpError, errorMessage } from '../../ui/forms.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { ReplyForm } from '../../ui/ReplyForm.tsx';
import { TicketStatusChip } from '../../ui/TicketList.tsx';
import { TicketThread, ticketTime } from '../../ui/TicketThread.tsx';

const text = support.desk;

type RunOutcome = NonNullable<NonNullable<Ticket['run']>['outcome']>;

/**
 * How the ticket's run ended, as the history words it ('Finalizado', 'Entradas incorrectas'…), with the
 * robot's message and when it ended: the team cannot open another firm's history to look.
 */
function outcomeText(outcome: RunOutcome): string {
  if (outcome.state === 'queued') return support.ticket.runQueued;
  if (outcome.state !== 'finished' && !outcome.stoppedByUser) return support.ticket.runGoing;
  const parts = [runStatus(outcome).label];
  if (outcome.message) parts.push(outcome.message);
  if (outcome.finishedAt) parts.push(ticketTime(outcome.finishedAt));
  return parts.join(' · ');
}

/**
 * One ticket as the support team sees it: the firm, the thread (the same look as /help), the answer
 * box (the user is emailed) and 'Cerrar consulta' / 'Reabrir'. Its heading takes the focus when it opens.
 */
export function DeskTicket({ id, backTo }: { id: string; backTo: string }) {
  const { data: ticket, isLoading, isError, error, refetch } = useDeskTicketQuery(id);
  const [answer] = useDeskReplyMutation();
  const [changeStatus, { isLoading: changing }] = useDeskStatusMutation();
  const [statusFailure, setStatusFailure] = useState<string | null>(null);
  const toast = useToast();
  const heading = useRef<HTMLHeadingElement>(null);
  const loadedId = ticket?.id;

  useEffect(() => {
    if (loadedId !== undefined) heading.current?.focus();
  }, [loadedId]);

  const send = async (reply: NewReply) => {
    try {
      await answer({ id, reply }).unwrap();
    } catch (failure) {
      throw new Error(errorMessage(failure, support.reply.failed));
    }
  };

  const toggle = async () => {
    if (!ticket) return;
    const closing = ticket.status !== 'closed';
    setStatusFailure(null);
    try {
      await changeStatus({ id, status: closing ? 'closed' : 'open' }).unwrap();
      toast.success(closing ? text.closed : text.reopened);
    } catch (failure) {
      setStatusFailure(errorMessage(failure, text.statusFailed));
    }
  };

  return (
    <section className="ui-card ui-section support-page" aria-labelledby="desk-ticket-title">
      <Link to={backTo}>{text.back}</Link>
      {isLoading ? (
        <Spinner label={support.ticket.loading} />
      ) : isError || !ticket ? (
        <div role="alert" className="ui-inline-error">
          <p>{asHttpError(error)?.status === 404 ? errorMessage(error, support.ticket.notFound) : support.ticket.failed}</p>
          {asHttpError(error)?.status !== 404 && <Button variant="ghost" onClick={() => void refetch()}>{support.list.retry}</Button>}
        </div>
      ) : (
        <>
          <div className="ui-section__head">
            <h2 id="desk-ticket-title" ref={heading} tabIndex={-1} className="ui-section__title support-heading support-subject">{ticket.subject}</h2>
            <Button variant="secondary" loading={changing} onClick={() => void toggle()}>
              {ticket.status === 'closed' ? text.reopen : text.close}
            </Button>
          </div>
          {statusFailure && <p role="alert" className="ui-inline-error">{statusFailure}</p>}
          <dl className="support-facts">
            <div><dt>{text.firm}</dt><dd>{ticket.firmName ?? ''}</dd></div>
            <div><dt>{support.ticket.status}</dt><dd><TicketStatusChip status={ticket.status} /></dd></div>
            <div><dt>{support.ticket.category}</dt><dd>{TICKET_CATEGORY_LABELS[ticket.category]}</dd></div>
            {ticket.run && (
              <div>
                <dt>{support.ticket.run}</dt>
                <dd>{support.form.runOption(ticket.run.robot, ticketTime(ticket.run.createdAt))}</dd>
              </div>
            )}
            {ticket.run?.outcome && (
              <div>
                <dt>{support.ticket.runOutcome}</dt>
                <dd>{outcomeText(ticket.run.outcome)}</dd>
              </div>
            )}
            <div><dd>{support.ticket.openedBy(`${ticket.openedBy.name} (${ticket.openedBy.email})`, ticketTime(ticket.createdAt))}</dd></div>
          </dl>
          <TicketThread messages={ticket.messages ?? []} attachmentHref={(fileId) => attachmentUrl(ticket.id, fileId, 'desk')} firmName={ticket.firmName ?? ''} />
          <ReplyForm onSend={send} upload={uploadAttachment} note={support.reply.deskNote} />
        </>
      )}
    </section>
  );
}
