import type { Mailer } from '../../../mail/mailer.ts';
import { MailSendError } from './errors.ts';

export const SMTP_NOT_CONFIGURED_MESSAGE = 'No hay servidor de correo configurado (SMTP_URL); el aviso solo queda en el registro del servidor.';

/**
 * Notices without a linked account go through the server's mailer (no attachments there). Without
 * SMTP_URL the mailer writes the notice to the log; the delivery is then recorded as failed, so the
 * history does not claim it reached anyone.
 */
export async function sendWithSmtp(mailer: Pick<Mailer, 'sendNotice' | 'configured'>, to: readonly string[], subject: string, body: string): Promise<null> {
  try {
    for (const address of to) await mailer.sendNotice({ to: address, subject, text: body, purpose: 'run_notice' });
  } catch {
    throw new MailSendError('retryable', 'El servidor de correo (SMTP) no ha aceptado el aviso; se reintentará');
  }
  if (!mailer.configured) throw new MailSendError('permanent', SMTP_NOT_CONFIGURED_MESSAGE);
  return null;
}
