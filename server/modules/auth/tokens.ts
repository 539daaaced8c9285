import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token for a cookie or an email link (256 bits, URL-safe). */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256, so a leaked table cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function addMs(date: Date, ms: number): string {
  return new Date(date.getTime() + ms).toISOString();
}
