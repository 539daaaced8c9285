/**
 * What the stand-in remembers: authorization codes, refresh and access tokens, queued failures and
 * refresh counts. Tokens are opaque random strings; everything lives in memory for the server's life.
 */
import { randomBytes } from 'node:crypto';

export type Provider = 'google' | 'microsoft';
export type FailingApi = 'gmail' | 'graph' | 'google-token' | 'microsoft-token';

/** Who granted what to which client: what every code and token carries. */
export interface Grant {
  provider: Provider;
  clientId: string;
  scopes: string[];
  email: string;
  name: string | null;
  nonce: string | null;
}

export interface CodeRecord extends Grant {
  redirectUri: string;
  challenge: string;
  expiresAt: number;
  used: boolean;
  /** Whether the token response carries a refresh token (Google: offline or desktop; Microsoft: offline_access). */
  offline: boolean;
}

interface TokenRecord extends Grant {
  kind: 'access' | 'refresh';
  /** The code the chain of tokens started from: a replayed code revokes the whole chain, rotations included. */
  family: string;
  valid: boolean;
  expiresAt: number;
}

export const CODE_LIFETIME_MS = 5 * 60 * 1000;

const pickGrant = ({ provider, clientId, scopes, email, name, nonce }: Grant): Grant => ({ provider, clientId, scopes, email, name, nonce });

const opaque = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

export class ProviderStore {
  private readonly codes = new Map<string, CodeRecord>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly failures = new Map<FailingApi, { status: number; left: number; retryAfterSeconds: number | undefined }>();
  private readonly refreshes = new Map<string, number>();

  constructor(private readonly accessTokenSeconds: number) {}

  issueCode(record: Omit<CodeRecord, 'expiresAt' | 'used'>): string {
    const code = opaque(record.provider === 'google' ? '4/g-' : 'M.m-');
    this.codes.set(code, { ...record, expiresAt: Date.now() + CODE_LIFETIME_MS, used: false });
    return code;
  }

  /** The code's record, marked used; a second use revokes everything the first one led to (RFC 6749 §4.1.2). */
  redeemCode(code: string, provider: Provider): CodeRecord | 'unknown' | 'reused' | 'expired' {
    const record = this.codes.get(code);
    if (record === undefined || record.provider !== provider) return 'unknown';
    if (record.used) {
      for (const token of this.tokens.values()) if (token.family === code) token.valid = false;
      return 'reused';
    }
    record.used = true;
    if (record.expiresAt < Date.now()) return 'expired';
    return record;
  }

  issueAccessToken(grant: Grant, family: string): string {
    const token = opaque(grant.provider === 'google' ? 'ya29.g-' : 'EwB-m-');
    this.tokens.set(token, { ...pickGrant(grant), family, kind: 'access', valid: true, expiresAt: Date.now() + this.accessTokenSeconds * 1000 });
    return token;
  }

  issueRefreshToken(grant: Grant, family: string): string {
    const token = opaque(grant.provider === 'google' ? '1//g-' : 'M.R3-m-');
    this.tokens.set(token, { ...pickGrant(grant), family, kind: 'refresh', valid: true, expiresAt: Number.POSITIVE_INFINITY });
    return token;
  }

  /** A refresh token that still works for this provider and client. */
  refreshGrant(token: string, provider: Provider, clientId: string): (Grant & { family: string }) | null {
    const record = this.tokens.get(token);
    if (record === undefined || record.kind !== 'refresh' || !record.valid || record.provider !== provider || record.clientId !== clientId) return null;
    return record;
  }

  /** The grant behind a live access token, or null (unknown, expired, revoked). */
  accessGrant(token: string): Grant | null {
    const record = this.tokens.get(token);
    if (record === undefined || record.kind !== 'access' || !record.valid || record.expiresAt <= Date.now()) return null;
    return record;
  }

  invalidate(token: string): boolean {
    const record = this.tokens.get(token);
    if (record === undefined) return false;
    record.valid = false;
    return true;
  }

  /** Google's revocation: a refresh token takes the access tokens of its grant with it. */
  revokeToken(token: string): boolean {
    const record = this.tokens.get(token);
    if (record === undefined) return false;
    record.valid = false;
    if (record.kind === 'refresh') {
      for (const other of this.tokens.values()) {
        if (other.kind === 'access' && other.provider === record.provider && other.clientId === record.clientId && other.email === record.email) other.valid = false;
      }
    }
    return true;
  }

  /** The user withdrew access: every token of the address stops working. */
  revokeEmail(email: string): void {
    const wanted = email.toLowerCase();
    for (const record of this.tokens.values()) if (record.email.toLowerCase() === wanted) record.valid = false;
  }

  expireAccessTokens(): void {
    for (const record of this.tokens.values()) if (record.kind === 'access') record.expiresAt = 0;
  }

  countRefresh(email: string): void {
    const key = email.toLowerCase();
    this.refreshes.set(key, (this.refreshes.get(key) ?? 0) + 1);
  }

  refreshCount(email: string): number {
    return this.refreshes.get(email.toLowerCase()) ?? 0;
  }

  failNext(api: FailingApi, status: number, times = 1, retryAfterSeconds?: number): void {
    this.failures.set(api, { status, left: times, retryAfterSeconds });
  }

  /** The failure this call of the API must answer, if one is queued. */
  takeFailure(api: FailingApi): { status: number; retryAfterSeconds: number | undefined } | null {
    const failure = this.failures.get(api);
    if (failure === undefined || failure.left <= 0) return null;
    failure.left -= 1;
    if (failure.left === 0) this.failures.delete(api);
    return { status: failure.status, retryAfterSeconds: failure.retryAfterSeconds };
  }
}
