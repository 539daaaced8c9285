import { readFile } from 'node:fs/promises';
import type { CapturedMail } from './smtp-capture.ts';

type Purpose = 'reset_password' | 'email_validation' | 'colleague_invite';

/** Where each kind of link the server mails points to (server/modules/auth/recovery-routes.ts, modules/colleagues). */
const LINK_PATHS: Record<Purpose, string> = {
  reset_password: '/auth/reset?',
  email_validation: '/auth/emailvalidation?',
  colleague_invite: '/invitacion/',
};

/**
 * The messages the server sent to this address through SMTP, oldest first: the global setup's SMTP
 * capture (e2e/smtp-capture.ts) writes one JSON line per message to E2E_MAILBOX.
 */
export async function mailsTo(to: string): Promise<CapturedMail[]> {
  const file = process.env.E2E_MAILBOX;
  if (!file) throw new Error('E2E_MAILBOX is not set: run through playwright.config.ts (global setup).');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error)));
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CapturedMail)
    .filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()));
}

/** The newest link of this kind the server emailed to this address. */
export async function newestMailedLink(to: string, purpose: Purpose): Promise<string | undefined> {
  const links = (await mailsTo(to)).flatMap((mail) => linksIn(mail.text).filter((link) => link.includes(LINK_PATHS[purpose])));
  return links.at(-1);
}

/** The http(s) addresses in a message's text. */
export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}
