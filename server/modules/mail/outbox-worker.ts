import type { Kysely } from 'kysely';
import type { MailProvider } from '#shared/api/mail.ts';
import type { Database } from '../../db/schema.ts';
import type { MailOutboxTable } from '../../db/schema-mail.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { RepeatingPass } from '../../timers/repeating-pass.ts';
import type { FileStorage } from '../storage/service.ts';
import { MAX_ATTEMPTS, OUT_OF_ATTEMPTS_SUFFIX, claim, dueIds, markFailed, markInterrupted, markRetry, markSent, markUnknown, retryDelayMs } from './outbox.ts';
import { ATTACHMENT_MISSING_MESSAGE, buildMime, loadAttachments, type AttachmentRef, type OutgoingMail } from './mime.ts';
import { MailSendError } from './transports/errors.ts';
import { GMAIL_ATTACHMENTS_LIMIT_BYTES, GMAIL_TOO_LARGE_MESSAGE, sendWithGmail } from './transports/gmail.ts';
import { GRAPH_ATTACHMENTS_LIMIT_BYTES, GRAPH_TOO_LARGE_MESSAGE, sendWithGraph } from './transports/graph.ts';
import { MAIL_PROVIDER_DEFAULTS } from './providers.ts';
import { sendWithSmtp } from './transports/smtp.ts';
import { MailAccountUnusableError, type MailAccessTokens } from './types.ts';

export const DEFAULT_API_BASE_URLS: Record<MailProvider, string> = { google: MAIL_PROVIDER_DEFAULTS.google.apiBaseUrl, microsoft: MAIL_PROVIDER_DEFAULTS.microsoft.apiBaseUrl };
export const ACCOUNT_GONE_MESSAGE = 'La cuenta de correo desde la que se enviaba ya no está conectada';
const TOKEN_UNAVAILABLE_MESSAGE = 'No se ha podido obtener el permiso de la cuenta de correo; se reintentará';
/** Rows claimed per query; a pass keeps going until nothing is due. */
const BATCH = 20;

export interface OutboxLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What runs before each pass's sending: the producers that queue result mails and notices. */
export interface OutboxProducer {
  produce(): Promise<unknown>;
}

export interface MailOutboxOptions {
  db: Kysely<Database>;
  storage: FileStorage;
  tokens: MailAccessTokens;
  mailer: Pick<Mailer, 'sendNotice' | 'configured'>;
  now: () => Date;
  /** Gmail's and Graph's API bases (MailProvidersConfig.apiBaseUrl); the real ones by default. */
  apiBaseUrls?: Partial<Record<MailProvider, string>>;
  producers?: readonly OutboxProducer[];
  /** SQLite: this is the only process, so every 'sending' row at start was left by a dead one. */
  singleProcess: boolean;
  log: OutboxLog;
  random?: () => number;
}

/**
 * The outbox worker: each pass runs the producers, then claims due rows one by one (a guarded UPDATE
 * only one process wins), sends each, and records sent, retry later, failed or, for attempts a dead
 * process left behind, unknown. Nothing is sent twice for one row: a row is retried only after an
 * attempt that certainly did not deliver.
 */
export class MailOutbox {
  /** Set by stop(): a pass under way ends after the row it is sending. */
  private stopped = false;
  private readonly apiBaseUrls: Record<MailProvider, string>;
  private readonly repeating: RepeatingPass;

  constructor(private readonly options: MailOutboxOptions) {
    this.apiBaseUrls = { ...DEFAULT_API_BASE_URLS, ...options.apiBaseUrls };
    this.repeating = new RepeatingPass(() => this.drain(), (error) => options.log.error({ err: error }, 'No se ha podido procesar la cola de correo'));
  }

  /** Marks what a previous process left mid-attempt as 'unknown' (all of it on SQLite). */
  async recover(): Promise<number> {
    return markInterrupted(this.options.db, this.options.now(), this.options.singleProcess);
  }

  /** Recovers, then runs a pass every `intervalMs` (the timer never keeps the process alive), one at a time. */
  async start(intervalMs: number): Promise<void> {
    await this.recover();
    this.repeating.start(intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.repeating.stop();
  }

  /** One pass: producers, stale attempts of dead processes, then every due row until none is due. */
  async drain(): Promise<void> {
    const { db, now } = this.options;
    for (const producer of this.options.producers ?? []) {
      await producer.produce().catch((error: unknown) => this.options.log.error({ err: error }, 'No se han podido preparar los correos de las ejecuciones'));
    }
    await markInterrupted(db, now(), false);
    for (;;) {
      const ids = await dueIds(db, now(), BATCH);
      if (ids.length === 0 || this.stopped) return;
      for (const id of ids) {
        const row = await claim(db, id, now());
        if (row) await this.attempt(row);
      }
    }
  }

  private async attempt(row: MailOutboxTable): Promise<void> {
    const { db, now } = this.options;
    try {
      const providerMessageId = await this.send(row);
      await markSent(db, row.id, providerMessageId, now());
    } catch (error) {
      const failure = this.classify(error);
      if (failure.kind === 'permanent') {
        await markFailed(db, row.id, failure.message, now());
      } else if (failure.kind === 'ambiguous') {
        await markUnknown(db, row.id, failure.message, now());
      } else if (row.attempts >= MAX_ATTEMPTS) {
        await markFailed(db, row.id, `${failure.message}${OUT_OF_ATTEMPTS_SUFFIX}`, now());
      } else {
        await markRetry(db, row.id, failure.message, retryDelayMs(row.attempts, failure.retryAfterMs, this.options.random), now());
      }
    }
  }

  /** Errors as the outbox treats them; anything unexpected is retried, its text never stored (it could hold anything). */
  private classify(error: unknown): MailSendError {
    if (error instanceof MailSendError) return error;
    if (error instanceof MailAccountUnusableError) return new MailSendError('permanent', error.message);
    this.options.log.warn({ errName: error instanceof Error ? error.name : typeof error }, 'Fallo inesperado al enviar un correo de la cola');
    return new MailSendError('retryable', TOKEN_UNAVAILABLE_MESSAGE);
  }

  private async send(row: MailOutboxTable): Promise<string | null> {
    const to = JSON.parse(row.to_addresses) as string[];
    if (row.transport === 'smtp') return sendWithSmtp(this.options.mailer, to, row.subject, row.body);
    if (row.account_id === null || row.from_address === null) throw new MailSendError('permanent', ACCOUNT_GONE_MESSAGE);
    const refs = JSON.parse(row.attachments) as AttachmentRef[];
    // Judged by the sizes recorded with the row, before any file is read into memory.
    const total = refs.reduce((sum, ref) => sum + ref.size, 0);
    if (row.transport === 'microsoft' && total > GRAPH_ATTACHMENTS_LIMIT_BYTES) throw new MailSendError('permanent', GRAPH_TOO_LARGE_MESSAGE);
    if (row.transport === 'google' && total > GMAIL_ATTACHMENTS_LIMIT_BYTES) throw new MailSendError('permanent', GMAIL_TOO_LARGE_MESSAGE);
    const attachments = await loadAttachments(this.options.db, this.options.storage, row.group_id, refs);
    if (attachments === null) throw new MailSendError('permanent', ATTACHMENT_MISSING_MESSAGE);
    const mail: OutgoingMail = { from: row.from_address, senderName: row.sender_name, to, replyTo: row.reply_to, subject: row.subject, body: row.body, attachments };
    const accountId = row.account_id;
    // Built once: a retry after a refused token sends the same bytes.
    const mime = row.transport === 'google' ? await buildMime(mail) : null;
    const once = async (): Promise<string | null> => {
      if (mime !== null) return sendWithGmail(this.options.tokens, accountId, mime, this.apiBaseUrls.google, this.options.now);
      return sendWithGraph(this.options.tokens, accountId, mail, this.apiBaseUrls.microsoft, this.options.now);
    };
    try {
      return await once();
    } catch (error) {
      // The stored token was refused before its expiry (revoked, rotated elsewhere): refresh and try once more now.
      if (!(error instanceof MailSendError) || error.kind !== 'unauthorized') throw error;
      await this.options.tokens.forgetAccessToken(accountId);
      try {
        return await once();
      } catch (again) {
        if (again instanceof MailSendError && again.kind === 'unauthorized') throw new MailSendError('retryable', again.message);
        throw again;
      }
    }
  }
}
