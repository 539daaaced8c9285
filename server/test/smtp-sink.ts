import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SmtpConfig } from '../mail/mailer.ts';

/** A message as the sink received it, decoded by mailparser. */
export interface SunkMail {
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, or null when the mail had none. */
  html: string | null;
  replyTo: string | null;
}

export interface SmtpSink {
  /** What the server's `smtp` setting takes to send here. */
  config: SmtpConfig;
  /** Every message received so far, oldest first. */
  mails: () => SunkMail[];
  close: () => Promise<void>;
}

/**
 * A real SMTP server on loopback for the API suites: the test server sends through nodemailer as it
 * would to a provider, and each message is kept in memory once the sink has parsed it (before the
 * sender is answered, so a request that awaited its mail finds it here). No TLS, no auth, 127.0.0.1 only.
 */
export async function startSmtpSink(from = 'AutoAsesor <no-responder@autoasesor.test>'): Promise<SmtpSink> {
  const received: SunkMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 20 * 1024 * 1024,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = [mail.to].flat().flatMap((address) => address?.value.map((entry) => entry.address ?? '') ?? []);
          const replyTo = mail.replyTo?.value[0]?.address ?? null;
          received.push({ to, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : null, replyTo });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    config: { url: `smtp://127.0.0.1:${port}`, from },
    mails: () => [...received],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
