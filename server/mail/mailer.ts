import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { linkMailParts, noticeHtml } from './link-parts.ts';

/** An email whose point is one link (password reset, email validation). */
export interface LinkEmail {
  to: string;
  subject: string;
  text: string;
  link: string;
  purpose: 'reset_password' | 'email_validation' | 'colleague_invite';
}

/** A security notice to an account's owner (e.g. sign-in locked after repeated failures). */
export interface NoticeEmail {
  to: string;
  subject: string;
  text: string;
  purpose:
    | 'account_locked'
    // A scheduled or remote run failed, was aborted or refused (mail outbox, when no linked account can send it).
    | 'run_notice'
    // A linked mailbox's provider refused its refresh token (invalid_grant): its owner must link it again.
    | 'mail_relink';
}

/**
 * A message to a firm's client company (altas y bajas): its form credentials, or that a worker's alta
 * was registered; or the daily DEHÚ digest to a firm's users. `link` is the address the message points to, if any:
 * sent, it is in the text (added at its end when the text does not hold it) and an `<a href>` in the HTML part.
 */
export interface MessageEmail {
  to: string;
  subject: string;
  text: string;
  link?: string;
  /** Where an answer goes instead of the sender (a ticket's signed reply address). */
  replyTo?: string;
  /** An HTML part besides the text (a link the reader clicks); the text stays whole on its own. Without one, a link's mail gets one built from the text (link-parts.ts). */
  html?: string;
  purpose:
    | 'form_credentials'
    | 'alta_registered'
    | 'dehu_digest'
    // A firm opened a ticket or wrote in it: to the support team, replying answers the ticket (issue 26).
    | 'ticket_received'
    // Support answered a ticket: to the user who opened it.
    | 'ticket_answer'
    // Stripe could not charge an invoice: to the firm's owner.
    | 'payment_failed'
    // An online form's public link, sent by an advisor to clients; and a new answer, to the form's owner (issue 40).
    | 'online_form_link'
    | 'online_form_submission';
}

export interface Mailer {
  /** Whether an SMTP server is set (SMTP_URL); without one, mail only reaches the server log. */
  readonly configured: boolean;
  sendLink(email: LinkEmail): Promise<void>;
  sendNotice(email: NoticeEmail): Promise<void>;
  sendMessage(email: MessageEmail): Promise<void>;
}

export interface SmtpConfig {
  url: string;
  from: string;
}

/**
 * SMTP when configured; otherwise the link goes to the server log at info level, which is how a
 * local install (and the tests) complete the flows without a mail server.
 */
export function createMailer(smtp: SmtpConfig | undefined, log: FastifyBaseLogger): Mailer {
  if (!smtp) {
    return {
      configured: false,
      async sendLink({ to, purpose, link }) {
        log.info({ mail: { to, purpose, link } }, `Correo no configurado (SMTP_URL): enlace para ${to}: ${link}`);
      },
      async sendNotice({ to, purpose, subject }) {
        log.info({ mail: { to, purpose } }, `Correo no configurado (SMTP_URL): aviso para ${to}: ${subject}`);
      },
      // The whole text: a local install has no other way to hand the company its credentials.
      async sendMessage({ to, purpose, subject, text, link, replyTo, html }) {
        log.info({ mail: { to, purpose, link: link ?? null, text, replyTo: replyTo ?? null, ...(html !== undefined && { html }) } }, `Correo no configurado (SMTP_URL): mensaje para ${to}: ${subject}`);
      },
    };
  }
  // nodemailer (~0.4 MB) loads with the first email, not with every server start.
  let transport: Promise<Transporter> | null = null;
  const send = async (to: string, subject: string, text: string, replyTo?: string, html?: string) => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtp.url));
    await (await transport).sendMail({ from: smtp.from, to, subject, text, ...(replyTo && { replyTo }), ...(html && { html }) });
  };
  return {
    configured: true,
    // A mail that names a link carries it: written out in the text, and clickable in an HTML part.
    async sendLink({ to, subject, text, link }) {
      const parts = linkMailParts(text, link);
      await send(to, subject, parts.text, undefined, parts.html);
    },
    async sendNotice({ to, subject, text }) {
      await send(to, subject, text, undefined, noticeHtml(text));
    },
    async sendMessage({ to, subject, text, link, replyTo, html }) {
      const parts = link ? linkMailParts(text, link, html) : { text, html };
      await send(to, subject, parts.text, replyTo, parts.html);
    },
  };
}
