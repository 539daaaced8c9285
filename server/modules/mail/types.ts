import type { MailProvider } from '#shared/api/mail.ts';

/**
 * The seam between the module's two halves: accounts (OAuth linking, sealed tokens, refresh) and the
 * outbox (queueing, sending, retries). The outbox asks for an access token when it sends and never
 * sees a refresh token.
 */

/** One OAuth client registration at a provider. Google's desktop client has a secret that is "not confidential". */
export interface OAuthClientConfig {
  clientId: string;
  clientSecret?: string;
}

/** A provider's endpoints and our registrations there; the real ones by default, a stand-in by configuration. */
export interface MailProviderConfig {
  /** The id_token issuer (Microsoft's multi-tenant 'common' authority issues per-tenant issuers). */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Where an unlinked account's token is revoked (Google); none for Microsoft. */
  revocationEndpoint: string | null;
  /** The server-side authorization-code flow (returns to PUBLIC_URL/oauth-response); null: not offered. */
  web: OAuthClientConfig | null;
  /** The desktop app's public client (loopback redirect, PKCE); null: not offered. */
  desktop: OAuthClientConfig | null;
  /** Gmail API (https://gmail.googleapis.com) or Microsoft Graph (https://graph.microsoft.com). */
  apiBaseUrl: string;
}

export type MailProvidersConfig = Record<MailProvider, MailProviderConfig>;

/** What the outbox sends with. */
export interface MailSender {
  accountId: string;
  provider: MailProvider;
  email: string;
  accessToken: string;
}

/** The account cannot send until it is linked again (invalid_grant, unlinked, another firm's). */
export class MailAccountUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailAccountUnusableError';
  }
}

export interface MailAccessTokens {
  /**
   * A valid access token for the account: the stored one while it has more than 5 minutes left,
   * else refreshed (Microsoft's rotated refresh token replacing the old one). Throws
   * MailAccountUnusableError when the provider answers invalid_grant (the account is then marked
   * 'needs_relink' and its owner told once) or the account is gone; other errors (network, 5xx)
   * throw as they are, so the outbox retries.
   */
  accessTokenFor(accountId: string): Promise<MailSender>;
  /**
   * After a provider refused an access token the stored expiry said was fine (401): forget it, so the
   * next accessTokenFor refreshes.
   */
  forgetAccessToken(accountId: string): Promise<void>;
}
