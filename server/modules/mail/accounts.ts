import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, MAIL_ACCOUNT_NOT_FOUND_MESSAGE, MAIL_PROVIDER_NAMES, OAUTH_DENIED_MESSAGE, OAUTH_EXCHANGE_FAILED_MESSAGE,
  OAUTH_NOT_CONFIGURED_MESSAGE, OAUTH_STATE_INVALID_MESSAGE,
  type DesktopClient, type DesktopClients, type MailAccount, type MailProvider, type OAuthCompleteRequest, type OAuthDesktopRequest, type OAuthStartRequest, type OAuthStartResponse,
} from '#shared/api/mail.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { SecretsBox } from '../../security/secrets.ts';
import { accountRow, listAccounts, listedAccount, type MailAccountRow } from './account-queries.ts';
import { buildAuthorizationRequest, grantsSending, InvalidGrantError, redeemCode, refreshAccess, revokeToken, type GrantedTokens, type OAuthTarget } from './oauth.ts';
import { MailAccountUnusableError, type MailAccessTokens, type MailProvidersConfig, type MailSender } from './types.ts';

/** The caller: a user of a firm (group). */
export interface Member {
  userId: string;
  groupId: string;
}

export interface MailAccountsDeps {
  db: Kysely<Database>;
  now: () => Date;
  secrets: SecretsBox;
  providers: MailProvidersConfig;
  /** Base URL of the web app: the web flow returns to `${publicUrl}/oauth-response`. */
  publicUrl: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** PostgreSQL: refreshes take the account's row lock (select … for update), for several server processes. */
  rowLocks?: boolean;
}

/** An authorization under way lives this long (the user picks an account and consents). */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** An access token with less than this left is refreshed before use. */
export const ACCESS_REFRESH_MARGIN_MS = 5 * 60_000;
/** Both providers issue one-hour access tokens; the figure when a response leaves expires_in out. */
const DEFAULT_ACCESS_SECONDS = 3600;

type ClientKind = 'web' | 'desktop';

/** A refresh's result: a token, or the provider's refusal (and whether this call is the one that marked it). */
type RefreshOutcome = { accessToken: string } | { row: MailAccountRow; newlyRefused: boolean };

/** The row, if it can send: gone and needs_relink are the outbox's MailAccountUnusableError. */
function usable(row: MailAccountRow | undefined): MailAccountRow {
  if (!row) throw new MailAccountUnusableError(MAIL_ACCOUNT_NOT_FOUND_MESSAGE);
  if (row.status !== 'linked') throw new MailAccountUnusableError(row.problem ?? MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE);
  return row;
}

function stateInvalid(): HttpError {
  return new HttpError(400, 'OAUTH_STATE_INVALID', OAUTH_STATE_INVALID_MESSAGE);
}

function notFound(): HttpError {
  return new HttpError(404, 'MAIL_ACCOUNT_NOT_FOUND', MAIL_ACCOUNT_NOT_FOUND_MESSAGE);
}

/**
 * The accounts half of the mail module: linking a mailbox (web and desktop OAuth), listing and
 * unlinking a firm's accounts, and the outbox's seam, accessTokenFor, which refreshes and rotates
 * tokens and marks an account 'needs_relink' when the provider refuses it. Tokens are sealed with the
 * secrets box before they touch the database and are never logged or answered.
 */
export class MailAccounts implements MailAccessTokens {
  /** One refresh at a time per account in this process (Microsoft's refresh token is single use). */
  private readonly refreshing = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: MailAccountsDeps) {}

  private target(provider: MailProvider, kind: ClientKind): OAuthTarget | null {
    const config = this.deps.providers[provider];
    const client = config[kind];
    return client ? { provider, config, client } : null;
  }

  private requireTarget(provider: MailProvider, kind: ClientKind): OAuthTarget {
    const target = this.target(provider, kind);
    if (!target) throw new HttpError(400, 'OAUTH_NOT_CONFIGURED', OAUTH_NOT_CONFIGURED_MESSAGE);
    return target;
  }

  /** GET oauth/desktop-clients: what an installed desktop app needs to start its loopback flow (public facts). */
  desktopClients(): DesktopClients {
    const one = (provider: MailProvider): DesktopClient | null => {
      const config = this.deps.providers[provider];
      return config.desktop ? { authorizationUrl: config.authorizationEndpoint, issuer: config.issuer, clientId: config.desktop.clientId } : null;
    };
    return { google: one('google'), microsoft: one('microsoft') };
  }

  /** POST oauth/start: an authorization URL for the browser, its state and verifier kept for ten minutes. */
  async startWeb(member: Member, request: OAuthStartRequest): Promise<OAuthStartResponse> {
    const target = this.requireTarget(request.provider, 'web');
    const now = this.deps.now();
    // Abandoned authorizations go as new ones start; no timer needed.
    await this.deps.db.deleteFrom('mail_oauth_states').where('expires_at', '<=', now.toISOString()).execute();
    const redirectUri = `${this.deps.publicUrl}/oauth-response`;
    const authorization = await buildAuthorizationRequest(target, redirectUri, request.loginHint);
    await this.deps.db
      .insertInto('mail_oauth_states')
      .values({
        state: authorization.state,
        group_id: member.groupId,
        user_id: member.userId,
        provider: request.provider,
        code_verifier: this.deps.secrets.seal(authorization.codeVerifier),
        redirect_uri: redirectUri,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
      })
      .execute();
    return { authorizationUrl: authorization.authorizationUrl };
  }

  /** POST oauth/complete: what /oauth-response received, for a state this user started and has not used. */
  async completeWeb(member: Member, request: OAuthCompleteRequest): Promise<MailAccount> {
    if (!request.error && !request.code) {
      throw new HttpError(400, 'VALIDATION', OAUTH_EXCHANGE_FAILED_MESSAGE, { issues: [{ path: 'code', message: 'Falta el código de autorización' }] });
    }
    const { db } = this.deps;
    const row = await db.selectFrom('mail_oauth_states').selectAll().where('state', '=', request.state).executeTakeFirst();
    // Another user's state is left alone: its own user may still complete it.
    if (!row || row.user_id !== member.userId || row.group_id !== member.groupId || row.expires_at <= this.deps.now().toISOString()) throw stateInvalid();
    // Single use, before anything is redeemed: of two requests with one state, one deletes it and goes on.
    const deleted = await db.deleteFrom('mail_oauth_states').where('state', '=', row.state).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) throw stateInvalid();
    if (request.error) {
      const message = request.error === 'access_denied' ? OAUTH_DENIED_MESSAGE : request.errorDescription?.trim() || OAUTH_EXCHANGE_FAILED_MESSAGE;
      throw new HttpError(400, 'OAUTH_DENIED', message);
    }
    const target = this.requireTarget(row.provider, 'web');
    const verifier = this.deps.secrets.open(row.code_verifier);
    const granted = await this.redeem(target, request.code ?? '', verifier, row.redirect_uri);
    return this.link(member, target, 'web', granted);
  }

  /** POST oauth/desktop: the code and verifier the desktop's loopback flow (OAuthConnect) obtained. */
  async completeDesktop(member: Member, request: OAuthDesktopRequest): Promise<MailAccount> {
    const target = this.requireTarget(request.provider, 'desktop');
    const granted = await this.redeem(target, request.code, request.codeVerifier, request.redirectUri);
    return this.link(member, target, 'desktop', granted);
  }

  private async redeem(target: OAuthTarget, code: string, verifier: string, redirectUri: string): Promise<GrantedTokens & { email: string; refreshToken: string }> {
    let granted: GrantedTokens & { email: string; refreshToken: string };
    try {
      granted = await redeemCode(target, code, verifier, redirectUri);
    } catch (error) {
      // A used code or a wrong verifier: the user starts again. Anything else is the provider's or the network's.
      if (error instanceof InvalidGrantError) throw new HttpError(400, 'OAUTH_EXCHANGE_FAILED', OAUTH_EXCHANGE_FAILED_MESSAGE);
      this.deps.log.warn({ provider: target.provider, reason: (error as { reason?: string }).reason ?? (error as Error).name }, 'No se ha podido canjear una autorización de correo');
      throw new HttpError(502, 'OAUTH_EXCHANGE_FAILED', OAUTH_EXCHANGE_FAILED_MESSAGE);
    }
    if (!grantsSending(target.provider, granted.scope)) {
      // Linked without the send permission is useless: give the grant back and say why.
      await this.revokeQuietly(target, () => granted.refreshToken);
      throw new HttpError(400, 'OAUTH_DENIED', OAUTH_DENIED_MESSAGE);
    }
    return granted;
  }

  /** Upserts by (firm, provider, address): linking again replaces the tokens, the linker and the status. */
  private async link(member: Member, target: OAuthTarget, kind: ClientKind, granted: GrantedTokens & { email: string; refreshToken: string }): Promise<MailAccount> {
    const now = this.deps.now();
    const seal = (text: string) => this.deps.secrets.seal(text);
    const tokens = {
      user_id: member.userId,
      client_kind: kind,
      scope: granted.scope ?? '',
      refresh_token: seal(granted.refreshToken),
      access_token: seal(granted.accessToken),
      access_expires_at: new Date(now.getTime() + (granted.expiresIn ?? DEFAULT_ACCESS_SECONDS) * 1000).toISOString(),
      status: 'linked' as const,
      problem: null,
      updated_at: now.toISOString(),
    };
    await this.deps.db
      .insertInto('mail_accounts')
      .values({ id: randomUUID(), group_id: member.groupId, provider: target.provider, email: granted.email, created_at: now.toISOString(), last_used_at: null, ...tokens })
      .onConflict((conflict) => conflict.columns(['group_id', 'provider', 'email']).doUpdateSet(tokens))
      .execute();
    const account = await listedAccount(this.deps.db, member.groupId, target.provider, granted.email, member.userId);
    if (!account) throw new Error('La cuenta de correo recién conectada no se encuentra');
    this.deps.log.info({ provider: target.provider, accountId: account._id }, 'Cuenta de correo conectada');
    return account;
  }

  /** GET accounts. */
  async list(member: Member): Promise<MailAccount[]> {
    return listAccounts(this.deps.db, member.groupId, member.userId);
  }

  /** DELETE account: any advisor of the firm (the owner included); revoked at the provider where it can be (Google), best effort. */
  async remove(member: Member, accountId: string): Promise<void> {
    const { db } = this.deps;
    const row = await db.selectFrom('mail_accounts').selectAll().where('id', '=', accountId).where('group_id', '=', member.groupId).executeTakeFirst();
    if (!row) throw notFound();
    const deleted = await db.deleteFrom('mail_accounts').where('id', '=', row.id).executeTakeFirst();
    // Unlinked meanwhile (by a colleague, or its linker's removal): that one revoked it.
    if (Number(deleted.numDeletedRows) !== 1) return;
    await this.revokeUnlinked([row]);
  }

  /**
   * A colleague leaves the firm (colleagues/service.ts): the mailboxes they linked are theirs, so they
   * are unlinked in the removal's transaction `trx` (with any authorization they had under way), and
   * the firm sends nothing more from them. Answers the rows, for revokeUnlinked once `trx` commits.
   * Queued mails from them then fail as 'no longer linked' (the outbox's account_id is set null).
   */
  async unlinkMember(trx: Kysely<Database>, groupId: string, userId: string): Promise<MailAccountRow[]> {
    await trx.deleteFrom('mail_oauth_states').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
    const rows = await trx.selectFrom('mail_accounts').selectAll().where('group_id', '=', groupId).where('user_id', '=', userId).execute();
    if (rows.length > 0) await trx.deleteFrom('mail_accounts').where('id', 'in', rows.map((row) => row.id)).execute();
    return rows;
  }

  /**
   * After unlinked rows are gone for good: each grant is revoked at its provider where the provider
   * allows it (Google), best effort; Microsoft has no revocation endpoint, and the deleted refresh
   * token was the only way in.
   */
  async revokeUnlinked(rows: readonly MailAccountRow[]): Promise<void> {
    const { db } = this.deps;
    for (const row of rows) {
      this.refreshing.delete(row.id);
      const target = this.target(row.provider, row.client_kind);
      if (!target?.config.revocationEndpoint) continue;
      // Google's revocation ends the whole grant of that user to our client: another firm that linked the
      // same mailbox through it would lose its link too, so it is revoked only when this was the last one.
      const others = await db.selectFrom('mail_accounts').select('id').where('provider', '=', row.provider).where('email', '=', row.email).where('client_kind', '=', row.client_kind).executeTakeFirst();
      if (!others) await this.revokeQuietly(target, () => this.deps.secrets.open(row.refresh_token));
    }
  }

  /** `token` is read inside the try: a token sealed under another key means no revocation, not a failed unlink. */
  private async revokeQuietly(target: OAuthTarget, token: () => string): Promise<void> {
    try {
      await revokeToken(target, token());
    } catch (error) {
      this.deps.log.warn({ provider: target.provider, reason: (error as { reason?: string }).reason ?? (error as Error).name }, 'No se ha podido revocar el permiso de una cuenta de correo');
    }
  }

  async accessTokenFor(accountId: string): Promise<MailSender> {
    // Serialized per account in this process. Across processes, PostgreSQL's row lock (rowLocks) orders
    // the refreshes; without it, a loser's invalid_grant is told apart from a revoked grant in refresh().
    const previous = this.refreshing.get(accountId) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(() => this.tokenNow(accountId));
    const tail = current.catch(() => undefined);
    this.refreshing.set(accountId, tail);
    try {
      return await current;
    } finally {
      if (this.refreshing.get(accountId) === tail) this.refreshing.delete(accountId);
    }
  }

  async forgetAccessToken(accountId: string): Promise<void> {
    await this.deps.db.updateTable('mail_accounts').set({ access_token: null, access_expires_at: null }).where('id', '=', accountId).execute();
  }

  private fresh(row: MailAccountRow): string | null {
    if (row.access_token === null || row.access_expires_at === null) return null;
    return Date.parse(row.access_expires_at) - this.deps.now().getTime() > ACCESS_REFRESH_MARGIN_MS ? this.deps.secrets.open(row.access_token) : null;
  }

  private async tokenNow(accountId: string): Promise<MailSender> {
    const row = usable(await accountRow(this.deps.db, accountId));
    const accessToken = this.fresh(row) ?? (this.deps.rowLocks ? await this.refreshLocked(row.id) : await this.refreshOrRelink(this.deps.db, row));
    await this.deps.db.updateTable('mail_accounts').set({ last_used_at: this.deps.now().toISOString() }).where('id', '=', row.id).execute();
    return { accountId: row.id, provider: row.provider, email: row.email, accessToken };
  }

  /**
   * PostgreSQL (several server processes): the refresh holds the account's row lock, so another
   * process waits and then finds the new token instead of spending Microsoft's old refresh token.
   */
  private async refreshLocked(accountId: string): Promise<string> {
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const row = usable(await trx.selectFrom('mail_accounts').selectAll().where('id', '=', accountId).forUpdate().executeTakeFirst());
      const fresh = this.fresh(row);
      return fresh !== null ? { accessToken: fresh } : this.refresh(trx, row);
    });
    return this.settle(outcome);
  }

  private async refreshOrRelink(db: Kysely<Database>, row: MailAccountRow): Promise<string> {
    return this.settle(await this.refresh(db, row));
  }

  /** After the refresh's writes are committed: the notice of a refused account goes out, and the caller is told. */
  private async settle(outcome: RefreshOutcome): Promise<string> {
    if ('accessToken' in outcome) return outcome.accessToken;
    if (outcome.newlyRefused) await this.noticeRelink(outcome.row);
    throw new MailAccountUnusableError(MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE);
  }

  private async refresh(db: Kysely<Database>, row: MailAccountRow): Promise<RefreshOutcome> {
    const target = this.target(row.provider, row.client_kind);
    if (!target) throw new MailAccountUnusableError(OAUTH_NOT_CONFIGURED_MESSAGE);
    let granted: GrantedTokens;
    try {
      granted = await refreshAccess(target, this.deps.secrets.open(row.refresh_token));
    } catch (error) {
      if (!(error instanceof InvalidGrantError)) throw error;
      // Without row locks, another process may have rotated the token under us: then its new access token is good.
      const current = await accountRow(db, row.id);
      if (current?.status === 'linked' && current.refresh_token !== row.refresh_token) {
        const token = this.fresh(current);
        if (token) return { accessToken: token };
      }
      return { row, newlyRefused: await this.markNeedsRelink(db, row) };
    }
    const now = this.deps.now();
    await db
      .updateTable('mail_accounts')
      .set({
        access_token: this.deps.secrets.seal(granted.accessToken),
        access_expires_at: new Date(now.getTime() + (granted.expiresIn ?? DEFAULT_ACCESS_SECONDS) * 1000).toISOString(),
        // Microsoft's rotated refresh token replaces the old one in the same write.
        ...(granted.refreshToken !== null && { refresh_token: this.deps.secrets.seal(granted.refreshToken) }),
        updated_at: now.toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
    return { accessToken: granted.accessToken };
  }

  /** needs_relink; true only for the write that changed the status, so one refusal tells the owner once. */
  private async markNeedsRelink(db: Kysely<Database>, row: MailAccountRow): Promise<boolean> {
    const result = await db
      .updateTable('mail_accounts')
      .set({ status: 'needs_relink', problem: MAIL_ACCOUNT_NEEDS_RELINK_MESSAGE, access_token: null, access_expires_at: null, updated_at: this.deps.now().toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'linked')
      .where('refresh_token', '=', row.refresh_token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The account's owner learns that it must be linked again (mailer.sendNotice; a failure to send is logged, not thrown). */
  private async noticeRelink(row: MailAccountRow): Promise<void> {
    const { db } = this.deps;
    this.deps.log.warn({ provider: row.provider, accountId: row.id }, 'Cuenta de correo pendiente de volver a conectar (invalid_grant)');
    const owner = await db.selectFrom('users').select(['email', 'name']).where('id', '=', row.user_id).executeTakeFirst();
    if (!owner) return;
    try {
      await this.deps.mailer.sendNotice({
        to: owner.email,
        purpose: 'mail_relink',
        subject: `Vuelve a conectar la cuenta de correo ${row.email}`,
        text: [
          `Hola, ${owner.name}:`,
          '',
          `${MAIL_PROVIDER_NAMES[row.provider]} ha retirado el permiso de AutoAsesor para enviar correo desde ${row.email}.`,
          'Hasta que la vuelvas a conectar, los robots no enviarán resultados ni avisos desde esa cuenta.',
          '',
          `Conéctala de nuevo en ${this.deps.publicUrl}/email`,
        ].join('\n'),
      });
    } catch (error) {
      this.deps.log.warn({ accountId: row.id, reason: (error as Error).name }, 'No se ha podido enviar el aviso de cuenta de correo a su propietario');
    }
  }
}
