import { useId } from 'react';
import type { ReactNode } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import type { MailDelivery } from '#shared/api/mail.ts';
import { formatBytes } from '#shared/files/size.ts';
import { formatMadridDate, formatMadridTime, madridDayKey } from '#shared/time/madrid.ts';
import { useRunDeliveriesQuery } from '../../api/mail.ts';
import { flows } from '../../i18n/es-flows.ts';
import { Button, IconAlert, IconCheck, IconHelp, IconInbox, IconMail } from '../../ui/index.ts';

const text = flows.deliveries;

/** While a mail waits for (or is in) an attempt, its state is asked again this often. */
export const DELIVERIES_POLL_MS = 5000;

const inFlight = (delivery: MailDelivery) => delivery.state === 'pending' || delivery.state === 'sending';

/** 'a las 09:05' (Madrid), with the date when it is another day than `sameDayAs`. */
function when(iso: string, sameDayAs: string): string {
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return '';
  const reference = new Date(sameDayAs);
  const sameDay = !Number.isNaN(reference.getTime()) && madridDayKey(reference) === madridDayKey(instant);
  return text.at(sameDay ? null : formatMadridDate(instant), formatMadridTime(instant));
}

/** The state in words, as the outbox knows it. */
export function deliveryStateText(delivery: MailDelivery): string {
  switch (delivery.state) {
    case 'pending': return delivery.nextAttemptAt === null ? text.pending : text.retryAt(when(delivery.nextAttemptAt, delivery.createdAt));
    case 'sending': return text.sending;
    case 'sent': {
      const sent = text.sent(delivery.sentAt === null ? '' : when(delivery.sentAt, delivery.createdAt)).trimEnd();
      return delivery.providerMessageId === null ? sent : `${sent} ${text.providerId(delivery.providerMessageId)}`;
    }
    case 'failed': return text.notSent(delivery.error ?? text.noReason);
    case 'unknown': return text.unknown(delivery.error ?? text.noReason);
  }
}

const stateIcons: Record<MailDelivery['state'], ReactNode> = {
  pending: <IconInbox size={16} />,
  sending: <IconMail size={16} />,
  sent: <IconCheck size={16} />,
  failed: <IconAlert size={16} />,
  unknown: <IconHelp size={16} />,
};

function Delivery({ delivery }: { delivery: MailDelivery }) {
  return (
    <li className={`flows-deliveries__item flows-deliveries__item--${delivery.state}`}>
      <p className="flows-deliveries__kind">{text.kinds[delivery.kind]}</p>
      <dl className="flows-deliveries__facts">
        <dt>{text.state}</dt>
        <dd className="flows-deliveries__state">
          {stateIcons[delivery.state]} <span>{deliveryStateText(delivery)}</span>
          {delivery.attempts > 1 && <span className="ui-muted"> · {text.attempts(delivery.attempts)}</span>}
        </dd>
        <dt>{text.to}</dt>
        <dd>{delivery.to.join(', ')}</dd>
        <dt>{text.subject}</dt>
        <dd>{delivery.subject}</dd>
        <dt>{text.from}</dt>
        <dd>{delivery.transport === 'smtp' || delivery.from === null ? text.server : delivery.from}</dd>
        {delivery.attachments.length > 0 && (
          <>
            <dt>{text.attachments}</dt>
            <dd>
              <ul className="flows-deliveries__attachments">
                {delivery.attachments.map((file) => <li key={file.name}>{text.attachment(file.name, formatBytes(file.size))}</li>)}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </li>
  );
}

/**
 * The mails a run caused (its result to the client, a failure notice), each with its delivery state.
 * Nothing at all when it caused none. Asked again every 5 s while any is still pending or sending.
 */
export function RunDeliveries({ runId }: { runId: string | null }) {
  const headingId = useId();
  const { data, isError, refetch } = useRunDeliveriesQuery(runId ?? skipToken);
  const busy = data?.some(inFlight) === true;
  // A second subscription, only while something is in flight: the poll stops once every mail has settled.
  useRunDeliveriesQuery(runId !== null && busy ? runId : skipToken, { pollingInterval: DELIVERIES_POLL_MS });

  if (isError && data === undefined) {
    return (
      <div className="flows-deliveries">
        <p className="ui-muted flows-log__note">
          {text.failed} <Button variant="secondary" onClick={() => void refetch()}>{text.retry}</Button>
        </p>
      </div>
    );
  }
  if (data === undefined || data.length === 0) return null;
  return (
    <section className="flows-deliveries" aria-labelledby={headingId}>
      <h3 id={headingId} className="flows-log__title">{text.title}</h3>
      <ul className="flows-deliveries__list">
        {data.map((delivery) => <Delivery key={delivery._id} delivery={delivery} />)}
      </ul>
    </section>
  );
}
