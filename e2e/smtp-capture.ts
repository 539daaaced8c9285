import { appendFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the capture keeps it: a JSON line per message in the capture file. */
export interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

/**
 * A real SMTP server on loopback for the browser tests: the app's server sends through nodemailer as it
 * would to the firm's provider, and each message, decoded by mailparser, is appended to `file`
 * (e2e/mailbox.ts reads it). Plain SMTP without auth: it listens on 127.0.0.1 only.
 */
export async function startSmtpCapture(file: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A test mail is small; anything bigger is a bug worth seeing.
    size: 20 * 1024 * 1024,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          const recipients = [mail.to].flat().flatMap((address) => address?.value.map((entry) => entry.address ?? '') ?? []);
          const line: CapturedMail = { to: recipients, subject: mail.subject ?? '', text: mail.text ?? '', receivedAt: new Date().toISOString() };
          await appendFile(file, `${JSON.stringify(line)}\n`);
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
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
