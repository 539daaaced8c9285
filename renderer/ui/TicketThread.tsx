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
  /**
   * The support desk's view: the firm the ticket is from. The firm's messages then read 'author · firm'
   * (the team's own read 'Soporte'); without it (/help) they are the reader's own, 'Tu asesoría'.
   */
  firmName?: string;
}

/** Who wrote a message, as the reader of the thread knows them. */
function authorLabel(message: TicketMessage, firmName: string | undefined): { name: string; side: string | null } {
  if (message.author === 'support') return { name: message.authorName, side: text.supportTeam };
  if (firmName === undefined) return { name: message.authorName, side: text.you };
  return { name: firmName === '' ? message.authorName : text.authorOfFirm(message.authorName, firmName), side: null };
}

function Message({ message, attachmentHref, firmName }: { message: TicketMessage; attachmentHref: (fileId: string) => string; firmName: string | undefined }) {
  const author = authorLabel(message, firmName);
  return (
    <li className={`support-message support-message--${message.author}`}>
      <article aria-label={`${author.name}, ${ticketTime(message.createdAt)}`}>
        <header className="support-message__header">
          <strong className="support-message__author">{author.name}</strong>
          {author.side && <span className="ui-chip">{author.side}</span>}
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
  );
}

/**
 * A ticket's conversation, oldest first: the firm's messages on one side, the support team's on the
 * other with their own colour, each with its author, time and files (plain download links).
 */
export function TicketThread({ messages, attachmentHref, firmName }: TicketThreadProps) {
  if (messages.length === 0) return <p className="ui-muted">{text.noMessages}</p>;
  return (
    <ol className="support-thread" aria-label={text.thread}>
      {messages.map((message) => (
        <Message key={message.id} message={message} attachmentHref={attachmentHref} firmName={firmName} />
      ))}
    </ol>
  );
}
