import type { FastifyBaseLogger } from 'fastify';
import { TICKET_CATEGORY_LABELS, type TicketCategory } from '#shared/api/support.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { SupportConfig } from './config.ts';
import { replyAddress } from './reply-address.ts';
import type { TicketRow } from './ticket-queries.ts';

/**
 * The ticket's emails: the support team hears of every message a firm writes (replying answers the
 * ticket, through its signed reply address), and the opener of every answer. A failed send is logged
 * and never undoes what was stored: the message is in the ticket either way.
 */
export class TicketMail {
  constructor(private readonly deps: { mailer: Mailer; publicUrl: string; support: SupportConfig; log: FastifyBaseLogger }) {}

  /** A new ticket, or the firm's reply in one: to the support address. */
  async received(ticket: TicketRow, message: { authorName: string; authorEmail: string; body: string; attachments: number }, isNew: boolean): Promise<void> {
    const { support, publicUrl } = this.deps;
    const link = `${publicUrl}/soporte?consulta=${ticket.id}`;
    const run = ticket.run_id ? `${ticket.run_robot ?? ''} (${ticket.run_created_at ?? ''}, id ${ticket.run_id})` : 'ninguna';
    const text = [
      isNew ? 'Nueva consulta de soporte.' : 'Nueva respuesta del usuario en una consulta.',
      '',
      `Empresa: ${ticket.firm_name}`,
      `Usuario: ${message.authorName} <${message.authorEmail}>`,
      `Tema: ${TICKET_CATEGORY_LABELS[ticket.category as TicketCategory] ?? ticket.category}`,
      `Ejecución: ${run}`,
      ...(message.attachments > 0 ? [`Archivos adjuntos: ${message.attachments} (en la consulta)`] : []),
      '',
      message.body,
      '',
      support.inbound ? 'Responde a este correo para contestar la consulta, o ábrela en este enlace:' : 'Contesta la consulta en este enlace:',
      link,
    ].join('\n');
    await this.send('ticket_received', {
      to: support.email,
      subject: `[Consulta ${shortId(ticket.id)}] ${ticket.subject}`,
      text,
      link,
      ...(support.inbound && { replyTo: replyAddress(support.email, support.inbound.replySecret, ticket.id) }),
    });
  }

  /** The support team answered: to the user who opened the ticket. */
  async answered(ticket: TicketRow, answer: { authorName: string; body: string }): Promise<void> {
    const link = `${this.deps.publicUrl}/help?consulta=${ticket.id}`;
    const text = [
      `Hola, ${ticket.opener_name}:`,
      '',
      `${answer.authorName}, del equipo de soporte, ha respondido a tu consulta «${ticket.subject}»:`,
      '',
      answer.body,
      '',
      'Puedes leerla y contestar en AutoAsesor, en Ayuda:',
      link,
    ].join('\n');
    await this.send('ticket_answer', {
      to: ticket.opener_email,
      subject: `Respuesta a tu consulta: ${ticket.subject}`,
      text,
      link,
    });
  }

  private async send(purpose: 'ticket_received' | 'ticket_answer', email: { to: string; subject: string; text: string; link: string; replyTo?: string }): Promise<void> {
    try {
      await this.deps.mailer.sendMessage({ purpose, ...email });
    } catch (error) {
      this.deps.log.error({ err: error, purpose }, 'No se ha podido enviar el correo de una consulta de soporte; la consulta queda guardada');
    }
  }
}

/** The first block of the ticket's id: enough to tell tickets apart in a subject line. */
export function shortId(ticketId: string): string {
  return ticketId.slice(0, 8);
}
