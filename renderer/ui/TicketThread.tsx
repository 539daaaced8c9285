import type { TicketMessage } from '#shared/api/support.ts';
import { formatBytes } from '#shared/files/index.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { support } from '../i18n/es-support.ts';
import { IconFile } from './icons.tsx';
import './support.css';

const text = support.ticket;

/** 'dd/mm/yyyy hh:mm' in Madrid, or the text as it came when it is not a date. */
export function ticketTime(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : formatMadridDateTime(instant);
}

export interface TicketThreadProps {
  messages: readonly TicketMessage[];
  /** Where an attachment downloads from (the firm's path or the support team's). */
  attachmentHref: (fileId: string) => string;
}

/**
 * A ticket's conversation, oldest first: the firm's messages on one side, the support team's on the
 * other with their own colour, each with its author, time and files (plain download links).
 */
export function TicketThread({ messages, attachmentHref }: TicketThreadProps) {
  if (messages.length === 0) return <p className="ui-muted">{text.noMessages}</p>;
  return (
    <ol className="support-thread" aria-label={text.thread}>
      {messages.map((message) => (
        <li key={message.id} className={`support-message support-message--${message.author}`}>
          <article aria-label={`${message.authorName}, ${ticketTime(message.createdAt)}`}>
            <header className="support-message__header">
              <strong>{message.authorName}</strong>
              <span className="ui-chip">{message.author === 'support' ? text.supportTeam : text.you}</span>
              <time className="ui-muted" dateTime={message.createdAt}>{ticketTime(message.createdAt)}</time>
              {message.via === 'email' && <span className="ui-muted">{text.viaEmail}</span>}
            </header>
            <p className="support-message__body">{message.body}</p>
            {message.attachments.length > 0 && (
              <ul className="support-message__files" aria-label={text.attachmentsOf}>
                {message.attachments.map((file) => (
                  <li key={file.fileId}>
                    <a href={attachmentHref(file.fileId)} download={file.name} aria-label={text.download(file.name)}>
                      <IconFile size={16} /> {file.name}
                    </a>{' '}
                    <span className="ui-muted">{formatBytes(file.size)}</span>
                  </li>
                ))}
              </ul>
            )}
          </article>
        </li>
      ))}
    </ol>
  );
}
