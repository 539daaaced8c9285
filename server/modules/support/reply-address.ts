import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A ticket's signed reply address: the support address with plus addressing,
 * `<local>+t.<ticketId>.<mac>@<domain>`, mac = the first 16 hex digits of
 * HMAC-SHA256(replySecret, ticketId). Replying to the team's notification answers the ticket; a
 * forged or altered address names no ticket.
 */

const MAC_LENGTH = 16;
// The ticket id is a UUID; mail systems may change the case of the local part.
const TAG = /^t\.([0-9a-f-]{36})\.([0-9a-f]{16})$/;

function macOf(replySecret: string, ticketId: string): string {
  return createHmac('sha256', replySecret).update(ticketId).digest('hex').slice(0, MAC_LENGTH);
}

function splitAddress(address: string): { local: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

export function replyAddress(supportEmail: string, replySecret: string, ticketId: string): string {
  const parts = splitAddress(supportEmail);
  if (!parts) throw new Error(`Dirección de soporte no válida: ${supportEmail}`);
  return `${parts.local}+t.${ticketId}.${macOf(replySecret, ticketId)}@${parts.domain}`;
}

/** The ticket a reply address names, when it is the support address's and its mac is right; else null. */
export function ticketOfReplyAddress(supportEmail: string, replySecret: string, address: string): string | null {
  const support = splitAddress(supportEmail.toLowerCase());
  const parts = splitAddress(address.trim().toLowerCase());
  if (!support || !parts || parts.domain !== support.domain) return null;
  const plus = parts.local.indexOf('+');
  if (plus < 0 || parts.local.slice(0, plus) !== support.local) return null;
  const match = TAG.exec(parts.local.slice(plus + 1));
  if (!match) return null;
  const [, ticketId = '', mac = ''] = match;
  const expected = macOf(replySecret, ticketId);
  return timingSafeEqual(Buffer.from(mac), Buffer.from(expected)) ? ticketId : null;
}
