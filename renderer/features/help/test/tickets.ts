import type { Ticket, TicketMessage, TicketPage } from '#shared/api/support.ts';
import { TICKET_PAGE_SIZE } from '#shared/api/support.ts';

/** A ticket as the API answers it; a list row unless `messages` is given. */
export function ticket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    id: 't1',
    subject: 'El robot de la AEAT no descarga las notificaciones',
    category: 'robots',
    status: 'open',
    run: null,
    openedBy: { name: 'Ana', email: 'ana@asesoria.es' },
    unread: 0,
    createdAt: '2026-03-02T08:15:00.000Z',
    updatedAt: '2026-03-02T09:30:00.000Z',
    ...overrides,
  };
}

export function message(overrides: Partial<TicketMessage> = {}): TicketMessage {
  return {
    id: 'm1', author: 'user', authorName: 'Ana', body: 'No descarga nada desde ayer.', via: 'app',
    createdAt: '2026-03-02T08:15:00.000Z', attachments: [], ...overrides,
  };
}

/** One page of `total` tickets, numbered t1..tN across pages of ten. */
export function ticketPage(page: number, total: number, overrides: (index: number) => Partial<Ticket> = () => ({})): TicketPage {
  const first = (page - 1) * TICKET_PAGE_SIZE;
  const count = Math.max(0, Math.min(TICKET_PAGE_SIZE, total - first));
  const items = Array.from({ length: count }, (_, offset) => {
    const index = first + offset + 1;
    return ticket({ id: `t${index}`, subject: `Consulta ${index}`, ...overrides(index) });
  });
  return { items, page, pageCount: Math.max(1, Math.ceil(total / TICKET_PAGE_SIZE)), total };
}
