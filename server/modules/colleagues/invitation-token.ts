import { randomBytes, timingSafeEqual } from 'node:crypto';
import { invitationTokenSchema } from '#shared/api/colleagues.ts';
import { hashToken } from '../auth/tokens.ts';

/**
 * An invitation link's token: `<id>.<secret>`. The id finds the row; the secret proves the link came
 * from the email, and only its SHA-256 is stored, so a leaked table cannot be turned into links.
 */
export interface IssuedInvitationToken {
  id: string;
  token: string;
  secretHash: string;
}

export function issueInvitationToken(): IssuedInvitationToken {
  const id = randomBytes(16).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${id}.${secret}`, secretHash: hashToken(secret) };
}

/** The token's parts, or null when it cannot be one of ours (refused before any lookup). */
export function parseInvitationToken(token: string): { id: string; secret: string } | null {
  if (!invitationTokenSchema.safeParse(token).success) return null;
  const [id, secret] = token.split('.');
  return id && secret ? { id, secret } : null;
}

/** Constant time, so the stored hash cannot be learnt byte by byte from response times. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashToken(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
