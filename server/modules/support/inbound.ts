import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type EmailAddress } from 'mailparser';
import { HttpError } from '../../http/errors.ts';
import type { SupportInboundConfig } from './config.ts';
import { ticketOfReplyAddress } from './reply-address.ts';
import { domainOf, senderDomainVerified, type HeaderField } from './sender-verification.ts';
import { ticketNotFound, type SupportTickets } from './tickets.ts';

/** What a support agent's emailed reply says, read from its raw RFC 822 text. */
export interface InboundReply {
  /** The Message-ID, or a digest of the raw message when it has none: a redelivery is recognised either way. */
  messageId: string;
  /** The sender's address, lower-case; null when the message names none. */
  from: string | null;
  /** Every address in To, Cc and Delivered-To, where the ticket's signed reply address should be. */
  recipients: string[];
  /** The answer itself: the text part without the quoted history. */
  body: string;
  /**
   * Every header field, top to bottom, values unparsed: the receiving service's Authentication-Results
   * verdicts on the sender count only where they sit among them (sender-verification.ts).
   */
  headerFields: HeaderField[];
}

export async function parseInboundReply(raw: Buffer): Promise<InboundReply> {
  // Attachments are not kept: the team attaches files from the desk, where the upload rules judge them.
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  const delivered = mail.headers.get('delivered-to') as AddressObject | AddressObject[] | undefined;
  const messageId = mail.messageId?.trim() || `sha256:${createHash('sha256').update(raw).digest('hex')}`;
  return {
    messageId,
    from: addressesOf(mail.from)[0] ?? null,
    recipients: [...addressesOf(mail.to), ...addressesOf(mail.cc), ...addressesOf(delivered)],
    body: withoutQuotedHistory(mail.text ?? ''),
    headerFields: mail.headerLines.map((line) => ({ name: line.key, value: line.line.slice(line.line.indexOf(':') + 1) })),
  };
}

function addressesOf(header: AddressObject | AddressObject[] | undefined): string[] {
  const objects = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const flatten = (entries: EmailAddress[]): string[] => entries.flatMap((entry) => [...(entry.address ? [entry.address.toLowerCase()] : []), ...flatten(entry.group ?? [])]);
  return objects.flatMap((object) => flatten(object.value));
}

// 'El jue, 27 nov 2026 a las 10:02, Ana <ana@x.es> escribió:' (Gmail may wrap it over two lines), 'On … wrote:'.
const ATTRIBUTION_START = /^\s*(el|on)\s/i;
const ATTRIBUTION_END = /(escribió|wrote)\s*:\s*$/i;
// Outlook's separators, in Spanish and English.
const SEPARATOR = /^\s*(-{2,}\s*(mensaje original|original message)\s*-{2,}|_{10,})\s*$/i;

/**
 * The reply without what it quotes: everything from the first attribution line ('El … escribió:',
 * 'On … wrote:'), Outlook separator or first '>' line on. Trailing blank lines go too.
 */
export function withoutQuotedHistory(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const cut = lines.findIndex((line, index) => {
    if (line.trimStart().startsWith('>') || SEPARATOR.test(line)) return true;
    if (!ATTRIBUTION_START.test(line)) return false;
    return ATTRIBUTION_END.test(line) || ATTRIBUTION_END.test(lines[index + 1] ?? '');
  });
  return (cut < 0 ? lines : lines.slice(0, cut)).join('\n').trim();
}

export const INBOUND_UNVERIFIED_SENDER_MESSAGE = 'No se puede comprobar que el correo venga de ese remitente (DKIM/SPF)';
export const INBOUND_NOT_AGENT_MESSAGE = 'Solo el equipo de soporte puede contestar consultas por correo';
export const INBOUND_EMPTY_MESSAGE = 'La respuesta no tiene texto (sin contar el mensaje citado)';
export const INBOUND_TOO_LONG_MESSAGE = 'La respuesta supera los 10.000 caracteres';
const MAX_ANSWER_LENGTH = 10_000;

/**
 * An agent's emailed reply, kept as an answer exactly like one from the desk. The ticket is the one a
 * valid signed reply address among the recipients names (none: 404); the receiving mail service must
 * have vouched for the From domain (DKIM, SPF or DMARC pass in the Authentication-Results it added on
 * top, not in any lower down that the sender may have written: else 403), and
 * the sender must be a support agent (403); a Message-ID already kept changes nothing ('already').
 * Every refusal writes nothing.
 */
export async function receiveEmailAnswer(tickets: SupportTickets, inbound: SupportInboundConfig, supportEmail: string, raw: Buffer): Promise<'kept' | 'already'> {
  const reply = await parseInboundReply(raw);
  const ticketIds = [...new Set(reply.recipients.map((address) => ticketOfReplyAddress(supportEmail, inbound.replySecret, address)))].filter((id) => id !== null);
  const ticket = (await Promise.all(ticketIds.map((id) => tickets.findAnyTicket(id)))).find((row) => row !== undefined);
  if (!ticket) throw ticketNotFound();
  if (!reply.from) throw new HttpError(403, 'NOT_SUPPORT_AGENT', INBOUND_NOT_AGENT_MESSAGE);
  // Before the agent lookup: a forged From must not learn who the agents are.
  if (!senderDomainVerified(reply.headerFields, domainOf(reply.from) ?? '', inbound.authservIds)) {
    tickets.deps.log.warn({ from: reply.from, ticketId: ticket.id, messageId: reply.messageId }, 'Respuesta por correo rechazada: ningún DKIM/SPF/DMARC válido para el dominio del remitente');
    throw new HttpError(403, 'SENDER_NOT_VERIFIED', INBOUND_UNVERIFIED_SENDER_MESSAGE);
  }
  const agent = await tickets.agentByEmail(reply.from);
  if (!agent) throw new HttpError(403, 'NOT_SUPPORT_AGENT', INBOUND_NOT_AGENT_MESSAGE);
  if (await tickets.emailKept(reply.messageId)) return 'already';
  if (!reply.body) throw new HttpError(400, 'EMPTY_ANSWER', INBOUND_EMPTY_MESSAGE);
  if (reply.body.length > MAX_ANSWER_LENGTH) throw new HttpError(400, 'ANSWER_TOO_LONG', INBOUND_TOO_LONG_MESSAGE);
  const kept = await tickets.answer(ticket, { author: 'support', authorUserId: agent.id, authorName: agent.name, body: reply.body, via: 'email', emailMessageId: reply.messageId, files: [] });
  return kept ? 'kept' : 'already';
}
