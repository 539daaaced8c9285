import { readFile } from 'node:fs/promises';

type Purpose = 'reset_password' | 'email_validation';

/**
 * The newest link the server "emailed" to this address: without SMTP the mailer logs it as a JSON
 * line `{ ..., "mail": { "to", "purpose", "link" } }` (server/mail/mailer.ts), which the global
 * setup writes to E2E_SERVER_LOG.
 */
export async function newestMailedLink(to: string, purpose: Purpose): Promise<string | undefined> {
  const file = process.env.E2E_SERVER_LOG;
  if (!file) throw new Error('E2E_SERVER_LOG is not set: run through playwright.config.ts (global setup).');
  const links = (await readFile(file, 'utf8')).split('\n').flatMap((line) => {
    const mail = mailOf(line);
    return mail?.to === to && mail.purpose === purpose && typeof mail.link === 'string' ? [mail.link] : [];
  });
  return links.at(-1);
}

function mailOf(line: string): { to?: unknown; purpose?: unknown; link?: unknown } | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const entry: unknown = JSON.parse(line);
    if (typeof entry !== 'object' || entry === null || !('mail' in entry)) return undefined;
    const mail: unknown = entry.mail;
    return typeof mail === 'object' && mail !== null ? mail : undefined;
  } catch {
    return undefined;
  }
}
