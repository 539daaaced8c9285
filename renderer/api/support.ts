import { pathFor } from '#shared/api/flows.ts';
import {
  supportInfoSchema, supportPath, supportPaths, ticketPageSchema, ticketSchema, unreadResponseSchema,
} from '#shared/api/support.ts';
import type { NewReply, NewTicket, SupportInfo, Ticket, TicketPage, TicketStatus } from '#shared/api/support.ts';
import { baseApi } from './baseApi.ts';

export { uploadAttachment, UploadRefused } from './supportUpload.ts';

const withQuery = (path: string, query: Record<string, string | number | undefined>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

/** Where a ticket's file is downloaded from: the firm's path, or the support team's. */
export function attachmentUrl(ticketId: string, fileId: string, side: 'firm' | 'desk'): string {
  return pathFor(side === 'firm' ? supportPaths.attachment : supportPaths.adminAttachment, { id: ticketId, fileId });
}

/** Both lists (the firm's and the desk's): refreshed when anything about a ticket changes. */
const LIST = { type: 'SupportTickets', id: 'LIST' } as const;

/** Runs `then` with the answer once a call succeeds; a failed call changed nothing, so nothing follows. */
async function afterRead<T>(answer: Promise<{ data: T }>, then: (data: T) => void): Promise<void> {
  try {
    then((await answer).data);
  } catch {
    // The component shows the failure; the caches stay as they were.
  }
}

/**
 * Support (shared/api/support.ts): the address, the firm's tickets (/help) and the support team's
 * desk (/soporte). 'SupportTickets' covers both lists and the threads; 'SupportUnread' is the badge,
 * refreshed whenever a thread is read (the server marks its answers read then) or a message is sent.
 */
export const supportApi = baseApi.enhanceEndpoints({ addTagTypes: ['SupportTickets', 'SupportUnread'] }).injectEndpoints({
  endpoints: (build) => ({
    /** The support address (SUPPORT_EMAIL); it rarely changes, so it is kept for the session. */
    supportInfo: build.query<SupportInfo, void>({
      query: () => supportPath,
      transformResponse: (response: unknown) => supportInfoSchema.parse(response),
      keepUnusedDataFor: 3600,
    }),
    tickets: build.query<TicketPage, { page: number }>({
      query: ({ page }) => withQuery(supportPaths.tickets, { page }),
      transformResponse: (response: unknown) => ticketPageSchema.parse(response),
      providesTags: [LIST],
    }),
    /** Reading a thread clears its unread answers on the server: the list and the badge follow. */
    ticket: build.query<Ticket, string>({
      query: (id) => pathFor(supportPaths.ticket, { id }),
      transformResponse: (response: unknown) => ticketSchema.parse(response),
      providesTags: (_result, _error, id) => [{ type: 'SupportTickets', id }],
      async onQueryStarted(_id, { dispatch, queryFulfilled }): Promise<void> {
        await afterRead(queryFulfilled, () => {
          dispatch(supportApi.util.invalidateTags(['SupportUnread', LIST]));
        });
      },
    }),
    createTicket: build.mutation<Ticket, NewTicket>({
      query: (body) => ({ url: supportPaths.tickets, method: 'POST', body }),
      transformResponse: (response: unknown) => ticketSchema.parse(response),
      invalidatesTags: [LIST],
    }),
    /** The answer is the whole thread: it replaces the cached one instead of a second read. */
    reply: build.mutation<Ticket, { id: string; reply: NewReply }>({
      query: ({ id, reply }) => ({ url: pathFor(supportPaths.replies, { id }), method: 'POST', body: reply }),
      transformResponse: (response: unknown) => ticketSchema.parse(response),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }): Promise<void> {
        await afterRead(queryFulfilled, (ticket) => {
          dispatch(keepThread('ticket', id, ticket));
        });
      },
      invalidatesTags: [LIST, 'SupportUnread'],
    }),
    unreadAnswers: build.query<number, void>({
      query: () => supportPaths.unread,
      transformResponse: (response: unknown) => unreadResponseSchema.parse(response).unread,
      providesTags: ['SupportUnread'],
    }),
    deskTickets: build.query<TicketPage, { status: TicketStatus; page: number }>({
      query: ({ status, page }) => withQuery(supportPaths.adminTickets, { status, page }),
      transformResponse: (response: unknown) => ticketPageSchema.parse(response),
      providesTags: [LIST],
    }),
    /** Reading a thread marks the user's messages read: the desk's list follows. */
    deskTicket: build.query<Ticket, string>({
      query: (id) => pathFor(supportPaths.adminTicket, { id }),
      transformResponse: (response: unknown) => ticketSchema.parse(response),
      providesTags: (_result, _error, id) => [{ type: 'SupportTickets', id: `desk-${id}` }],
      async onQueryStarted(_id, { dispatch, queryFulfilled }): Promise<void> {
        await afterRead(queryFulfilled, () => {
          dispatch(supportApi.util.invalidateTags([LIST]));
        });
      },
    }),
    deskReply: build.mutation<Ticket, { id: string; reply: NewReply }>({
      query: ({ id, reply }) => ({ url: pathFor(supportPaths.adminReplies, { id }), method: 'POST', body: reply }),
      transformResponse: (response: unknown) => ticketSchema.parse(response),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }): Promise<void> {
        await afterRead(queryFulfilled, (ticket) => {
          dispatch(keepThread('deskTicket', id, ticket));
        });
      },
      invalidatesTags: [LIST],
    }),
    /** Answers the ticket without its messages: the cached thread keeps them, with the new status. */
    deskStatus: build.mutation<Ticket, { id: string; status: TicketStatus }>({
      query: ({ id, status }) => ({ url: pathFor(supportPaths.adminStatus, { id }), method: 'PUT', body: { status } }),
      transformResponse: (response: unknown) => ticketSchema.parse(response),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }): Promise<void> {
        await afterRead(queryFulfilled, (ticket) => {
          dispatch(keepThread('deskTicket', id, ticket));
        });
      },
      invalidatesTags: [LIST],
    }),
  }),
});

/** A cached thread takes a changed ticket, keeping its messages when the answer carries none (a status change). */
function keepThread(endpoint: 'ticket' | 'deskTicket', id: string, ticket: Ticket) {
  return supportApi.util.updateQueryData(endpoint, id, (cached: Ticket): Ticket => ({ ...ticket, messages: ticket.messages ?? cached.messages }));
}

export const {
  useSupportInfoQuery, useTicketsQuery, useTicketQuery, useCreateTicketMutation, useReplyMutation, useUnreadAnswersQuery,
  useDeskTicketsQuery, useDeskTicketQuery, useDeskReplyMutation, useDeskStatusMutation,
} = supportApi;
