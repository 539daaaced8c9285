import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FileStorage } from '../storage/service.ts';

/** A file of the run as the outbox row names it (stored_files.id, its name and size). */
export interface AttachmentRef {
  fileId: string;
  name: string;
  size: number;
}

export interface LoadedAttachment {
  name: string;
  content: Buffer;
}

/** One message ready to go: what the outbox row holds, with its files read. */
export interface OutgoingMail {
  from: string;
  senderName: string | null;
  to: readonly string[];
  replyTo: string | null;
  subject: string;
  body: string;
  attachments: readonly LoadedAttachment[];
}

export const ATTACHMENT_MISSING_MESSAGE = 'Un archivo del resultado ya no está guardado (se borró al caducar); no se puede enviar.';

/**
 * Reads the row's files from storage, by the storage key stored_files gives their id. A file removed
 * by retention is a permanent problem: the caller records it rather than retrying.
 */
export async function loadAttachments(db: Kysely<Database>, storage: FileStorage, groupId: string, refs: readonly AttachmentRef[]): Promise<LoadedAttachment[] | null> {
  if (refs.length === 0) return [];
  const rows = await db
    .selectFrom('stored_files')
    .select(['id', 'storage_key', 'expired_at'])
    .where('group_id', '=', groupId)
    .where('id', 'in', refs.map((ref) => ref.fileId))
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const loaded: LoadedAttachment[] = [];
  for (const ref of refs) {
    const row = byId.get(ref.fileId);
    if (!row || row.expired_at !== null) return null;
    const content = await storage.read(row.storage_key).catch(() => null);
    if (content === null) return null;
    loaded.push({ name: ref.name, content });
  }
  return loaded;
}

/**
 * The RFC 5322 message (Gmail sends it as it is): From with the sender's name, Reply-To, To, the
 * subject as UTF-8 encoded-words, the text body and the files base64-encoded, by nodemailer's composer.
 */
export async function buildMime(mail: OutgoingMail): Promise<Buffer> {
  // nodemailer loads with the first message, not with every server start (as server/mail/mailer.ts does).
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer/index.js');
  const composer = new MailComposer({
    from: mail.senderName ? { name: mail.senderName, address: mail.from } : mail.from,
    to: [...mail.to],
    ...(mail.replyTo && { replyTo: mail.replyTo }),
    subject: mail.subject,
    text: mail.body,
    textEncoding: 'quoted-printable',
    attachments: mail.attachments.map((file) => ({ filename: file.name, content: file.content })),
  });
  const message = composer.compile();
  // Bcc never belongs in what is sent; the composer keeps it out unless asked.
  message.keepBcc = false;
  return message.build();
}
