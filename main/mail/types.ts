import type { MailProvider } from '#shared/api/mail.ts';
import type { BridgeArgs, BridgeResult } from '#shared/bridge/contract.ts';

/**
 * Linking a mailbox from this PC (issue 25, RFC 8252): the system browser goes to the provider, its
 * answer comes back to a loopback listener, and the single-use code with its PKCE verifier goes to
 * the renderer, which hands it to the server (POST mailPaths.oauthDesktop). The server redeems it with
 * the same desktop client id and keeps the tokens.
 *
 * Why the desktop keeps no token: Microsoft rotates the refresh token on every use, so exactly one
 * holder may keep it (the server's outbox); a second copy on this PC would be invalidated at the
 * server's first refresh, and the other way round.
 */

/** One provider's public (desktop) client as this PC uses it. */
export interface MailProviderDesktopSettings {
  /** The provider's authorization endpoint (or a stand-in's). */
  authorizationUrl: string;
  /** Checked against the `iss` response parameter when the provider sends one (RFC 9207). */
  issuer: string;
  /** The desktop client registration; null: this installation does not offer the provider. */
  clientId: string | null;
}

export type MailDesktopSettings = Record<MailProvider, MailProviderDesktopSettings>;

/** Opens an address in the user's browser (Electron's shell, or the agent's file / stderr). */
export type UrlOpener = (url: string) => Promise<void>;

export type OAuthConnectArgs = BridgeArgs<'OAuthConnect'>;
export type OAuthConnectResult = BridgeResult<'OAuthConnect'>;

export interface MailDesktop {
  /**
   * One authorization round in the system browser: resolves with the code, its verifier and the
   * redirect URI it was sent to; rejects with a BridgeFailure (UNAVAILABLE, DENIED, TIMEOUT, FAILED).
   * A second call while one waits cancels the first.
   */
  connect(args: OAuthConnectArgs): Promise<OAuthConnectResult>;
}
