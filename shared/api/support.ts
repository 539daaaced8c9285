import { z } from 'zod/mini';

/** GET /api/support: public, so signed-out pages can also show where to ask for help. */
export const supportPath = '/api/support';

export const supportInfoSchema = z.object({
  /** The support team's address (SUPPORT_EMAIL on the server), for those who prefer to write. */
  email: z.email(),
});
export type SupportInfo = z.infer<typeof supportInfoSchema>;

/**
 * Support tickets (issue 26, spec §7 'Tickets: list, get, create, reply'; §9 ticket list page 10).
 * A firm sees its own tickets (every member sees the firm's); the support team (users.support_agent,
 * a server role) answers from the admin paths, which answer 404 to anyone else, or by replying to the
 * email the team receives. The user is emailed on each answer and sees the unread answers on /help.
 */
export const supportPaths = {
  /** GET ?page=1 -> TicketPage (10 a page, most recently active first); POST NewTicket -> Ticket (201). */
  tickets: '/api/support/tickets',
  /** GET -> Ticket with its messages; marks the support answers read. 404 for another firm's. */
  ticket: '/api/support/tickets/:id',
  /** POST NewReply -> Ticket (201). A reply reopens a closed ticket. */
  replies: '/api/support/tickets/:id/replies',
  /** GET -> the file attached to one of the ticket's messages (download); 404 when not attached to it, 410 once deleted. */
  attachment: '/api/support/tickets/:id/attachments/:fileId',
  /** GET -> { unread }: support answers the firm has not read (the /help badge). */
  unread: '/api/support/tickets/unread',
  /** Support team only. GET ?status=open|answered|closed&page=1 -> TicketPage over every firm. */
  adminTickets: '/api/support/admin/tickets',
  /** Support team only. GET -> Ticket (with the firm's name); marks the user's messages read. */
  adminTicket: '/api/support/admin/tickets/:id',
  /** Support team only. POST NewReply -> Ticket (201): an answer; the user is emailed. */
  adminReplies: '/api/support/admin/tickets/:id/replies',
  /** Support team only. GET -> a file attached to the ticket (as attachment, for the team). */
  adminAttachment: '/api/support/admin/tickets/:id/attachments/:fileId',
  /** Support team only. PUT { status } -> Ticket. */
  adminStatus: '/api/support/admin/tickets/:id/status',
  /**
   * The mail service's inbound hook: a support agent's email reply as raw RFC 822 (Content-Type
   * message/rfc822), Authorization: Bearer SUPPORT_INBOUND_TOKEN. The ticket is named by the signed
   * reply address the team's notification carried. 204 kept (or already kept); 404 when the token is unset.
   */
  inbound: '/api/support/inbound',
} as const;

export const TICKET_PAGE_SIZE = 10;
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = { open: 'Pendiente de soporte', answered: 'Respondido', closed: 'Cerrado' };

export const TICKET_CATEGORIES = ['robots', 'certificados', 'facturacion', 'cuenta', 'otro'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  robots: 'Un robot o una ejecución',
  certificados: 'Certificados y equipos',
  facturacion: 'Pagos y facturas',
  cuenta: 'Mi cuenta y mi equipo',
  otro: 'Otra consulta',
};
/** Files one message may carry; each goes through the upload rules (POST /api/storage/uploads, ≤ 100 MB, judged by content). */
export const TICKET_MAX_ATTACHMENTS = 5;

export const TICKET_NOT_FOUND_MESSAGE = 'No se ha encontrado esta consulta';
export const TICKET_RUN_NOT_FOUND_MESSAGE = 'La ejecución indicada no existe o no es de tu empresa';
export const TICKET_ATTACHMENT_NOT_FOUND_MESSAGE = 'Un archivo adjunto no existe o no es de tu empresa';

export const ticketAttachmentSchema = z.object({ fileId: z.string(), name: z.string(), size: z.number() });
export type TicketAttachment = z.infer<typeof ticketAttachmentSchema>;

export const ticketMessageSchema = z.object({
  id: z.string(),
  author: z.enum(['user', 'support']),
  authorName: z.string(),
  body: z.string(),
  via: z.enum(['app', 'email']),
  createdAt: z.string(),
  attachments: z.array(ticketAttachmentSchema),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

export const ticketSchema = z.object({
  id: z.string(),
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  status: z.enum(TICKET_STATUSES),
  /**
   * The run it is about, with the robot's name; null when none. On the admin paths also how it ended
   * (`outcome`): the support team cannot open another firm's history, so the desk shows it there.
   */
  run: z.nullable(
    z.object({
      id: z.string(),
      robot: z.string(),
      createdAt: z.string(),
      outcome: z.optional(z.object({ state: z.string(), result: z.nullable(z.string()), stoppedByUser: z.boolean(), message: z.nullable(z.string()), finishedAt: z.nullable(z.string()) })),
    }),
  ),
  openedBy: z.object({ name: z.string(), email: z.string() }),
  /** Support answers not read yet (for the firm), or user messages not read yet (for the support team). */
  unread: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Only on the admin paths. */
  firmName: z.optional(z.string()),
  /** Only when one ticket is read (GET ticket, replies): oldest first. */
  messages: z.optional(z.array(ticketMessageSchema)),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketPageSchema = z.object({ items: z.array(ticketSchema), page: z.number(), pageCount: z.number(), total: z.number() });
export type TicketPage = z.infer<typeof ticketPageSchema>;

const body = z.string().check(z.trim(), z.minLength(1, 'Escribe tu mensaje'), z.maxLength(10_000, 'Máximo 10.000 caracteres'));
const attachmentIds = z.optional(z.array(z.string().check(z.maxLength(100))).check(z.maxLength(TICKET_MAX_ATTACHMENTS, `Como máximo ${TICKET_MAX_ATTACHMENTS} archivos por mensaje`)));

export const newTicketSchema = z.strictObject({
  subject: z.string().check(z.trim(), z.minLength(1, 'Indica el asunto'), z.maxLength(150, 'Máximo 150 caracteres')),
  category: z.enum(TICKET_CATEGORIES, 'Elige de qué trata la consulta'),
  body,
  runId: z.optional(z.string().check(z.maxLength(100))),
  /** stored_files ids from POST /api/storage/uploads (flowsPaths.uploads). */
  attachmentIds,
});
export type NewTicket = z.infer<typeof newTicketSchema>;

export const newReplySchema = z.strictObject({ body, attachmentIds });
export type NewReply = z.infer<typeof newReplySchema>;

export const ticketStatusChangeSchema = z.strictObject({ status: z.enum(TICKET_STATUSES) });
export const ticketListQuerySchema = z.strictObject({
  page: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000))),
  status: z.optional(z.enum(TICKET_STATUSES)),
});
export const unreadResponseSchema = z.object({ unread: z.number() });
