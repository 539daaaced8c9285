import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** An email whose point is one link (password reset, email validation). */
export interface LinkEmail {
  to: string;
  subject: string;
  text: string;
  link: string;
  purpose: 'reset_password' | 'email_validation';
}

export interface Mailer {
  sendLink(email: LinkEmail): Promise<void>;
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
      async sendLink({ to, purpose, link }) {
        log.info({ mail: { to, purpose, link } }, `Correo no configurado (SMTP_URL): enlace para ${to}: ${link}`);
      },
    };
  }
  const transport = nodemailer.createTransport(smtp.url);
  return {
    async sendLink({ to, subject, text }) {
      await transport.sendMail({ from: smtp.from, to, subject, text });
    },
  };
}
