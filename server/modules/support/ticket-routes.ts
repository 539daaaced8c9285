import { createHash, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import {
  newReplySchema, newTicketSchema, supportPaths, ticketListQuerySchema, ticketPageSchema, ticketSchema, ticketStatusChangeSchema, unreadResponseSchema,
} from '#shared/api/support.ts';
import type { AppContext } from '../../context.ts';
import { HttpError, unauthenticated } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { ACCESS_COOKIE, optionalSession, requireSession } from '../../http/session.ts';
import { fileExpired, isExpired } from '../retention/retention.ts';
import { attachment } from '../storage/download.ts';
import type { FileStorage } from '../storage/service.ts';
import type { TicketFile } from './attachments.ts';
import { receiveEmailAnswer } from './inbound.ts';
import type { SupportAgent, SupportTickets } from './tickets.ts';

const ticketParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });
const attachmentParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)), fileId: z.string().check(z.minLength(1), z.maxLength(100)) });
const MAX_INBOUND_BYTES = 10 * 1024 * 1024;

/** What an unknown path answers (http/web-app.ts): the team's paths look the same to anyone else. */
const notFound = () => new HttpError(404, 'NOT_FOUND', 'Recurso no encontrado');

/**
 * Support tickets (issue 26): the firm's paths (every member sees the firm's tickets), the support
 * team's (404 to anyone but an agent, so firms never learn they exist) and the mail service's inbound
 * hook for answers by email.
 */
export async function registerTicketRoutes(app: FastifyInstance, ctx: AppContext, tickets: SupportTickets, storage: FileStorage): Promise<void> {
  registerFirmRoutes(app, ctx, tickets, storage);
  registerAgentRoutes(app, ctx, tickets, storage);
  await registerInboundRoute(app, tickets);
}

function registerFirmRoutes(app: FastifyInstance, ctx: AppContext, tickets: SupportTickets, storage: FileStorage): void {
  app.get(supportPaths.tickets, { schema: routeSchema({ tag: 'support', summary: 'The firm\'s tickets, most recently active first', querystring: ticketListQuerySchema, response: { 200: ticketPageSchema } }) }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { page = 1, status } = parseInput(ticketListQuerySchema, request.query);
    return tickets.list(groupId, page, status);
  });

  app.post(supportPaths.tickets, { schema: routeSchema({ tag: 'support', summary: 'Open a ticket (the support team is emailed)', body: newTicketSchema, response: { 201: ticketSchema } }) }, async (request, reply) => {
    const { userId, groupId } = await requireSession(request, ctx);
    const input = parseInput(newTicketSchema, request.body);
    return reply.status(201).send(await tickets.create({ userId, groupId }, input));
  });

  app.get(supportPaths.unread, { schema: routeSchema({ tag: 'support', summary: 'Support answers the firm has not read', response: { 200: unreadResponseSchema } }) }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    return { unread: await tickets.unread(groupId) };
  });

  app.get(supportPaths.ticket, { schema: routeSchema({ tag: 'support', summary: 'One of the firm\'s tickets with its messages (marks the answers read)', params: ticketParamsSchema, response: { 200: ticketSchema } }) }, async (request) => {
    const { groupId } = await requireSession(request, ctx);
    const { id } = parseInput(ticketParamsSchema, request.params);
    return tickets.get(groupId, id);
  });

  app.post(supportPaths.replies, { schema: routeSchema({ tag: 'support', summary: 'Write in one of the firm\'s tickets (reopens it)', params: ticketParamsSchema, body: newReplySchema, response: { 201: ticketSchema } }) }, async (request, reply) => {
    const { userId, groupId } = await requireSession(request, ctx);
    const { id } = parseInput(ticketParamsSchema, request.params);
    const input = parseInput(newReplySchema, request.body);
    return reply.status(201).send(await tickets.reply({ userId, groupId }, id, input));
  });

  app.get(supportPaths.attachment, { schema: routeSchema({ tag: 'support', summary: 'Download a file attached to one of the firm\'s tickets', params: attachmentParamsSchema }) }, async (request, reply) => {
    const { groupId } = await requireSession(request, ctx);
    const { id, fileId } = parseInput(attachmentParamsSchema, request.params);
    return sendTicketFile(reply, ctx, storage, await tickets.attachment(groupId, id, fileId));
  });
}

function registerAgentRoutes(app: FastifyInstance, ctx: AppContext, tickets: SupportTickets, storage: FileStorage): void {
  /** The signed-in agent, or the answer an unknown path gets. */
  async function requireAgent(request: FastifyRequest): Promise<SupportAgent> {
    const session = await optionalSession(request, ctx);
    if (!session) {
      // A stale session cookie gets the 401 the desk answers with a refresh; without one, nothing is here.
      throw request.cookies[ACCESS_COOKIE] ? unauthenticated() : notFound();
    }
    const agent = await tickets.agent(session.userId);
    if (!agent) throw notFound();
    return agent;
  }

  app.get(supportPaths.adminTickets, { schema: routeSchema({ tag: 'support', summary: 'Support team: every firm\'s tickets by status', querystring: ticketListQuerySchema, response: { 200: ticketPageSchema } }) }, async (request) => {
    await requireAgent(request);
    const { page = 1, status } = parseInput(ticketListQuerySchema, request.query);
    return tickets.adminList(page, status);
  });

  app.get(supportPaths.adminTicket, { schema: routeSchema({ tag: 'support', summary: 'Support team: a ticket with its messages (marks the firm\'s read)', params: ticketParamsSchema, response: { 200: ticketSchema } }) }, async (request) => {
    await requireAgent(request);
    const { id } = parseInput(ticketParamsSchema, request.params);
    return tickets.adminGet(id);
  });

  app.post(supportPaths.adminReplies, { schema: routeSchema({ tag: 'support', summary: 'Support team: answer a ticket (the user is emailed)', params: ticketParamsSchema, body: newReplySchema, response: { 201: ticketSchema } }) }, async (request, reply) => {
    const agent = await requireAgent(request);
    const { id } = parseInput(ticketParamsSchema, request.params);
    const input = parseInput(newReplySchema, request.body);
    return reply.status(201).send(await tickets.adminReply(agent, id, input));
  });

  app.put(supportPaths.adminStatus, { schema: routeSchema({ tag: 'support', summary: 'Support team: change a ticket\'s status', params: ticketParamsSchema, body: ticketStatusChangeSchema, response: { 200: ticketSchema } }) }, async (request) => {
    await requireAgent(request);
    const { id } = parseInput(ticketParamsSchema, request.params);
    const { status } = parseInput(ticketStatusChangeSchema, request.body);
    return tickets.setStatus(id, status);
  });

  app.get(supportPaths.adminAttachment, { schema: routeSchema({ tag: 'support', summary: 'Support team: download a file attached to a ticket', params: attachmentParamsSchema }) }, async (request, reply) => {
    await requireAgent(request);
    const { id, fileId } = parseInput(attachmentParamsSchema, request.params);
    return sendTicketFile(reply, ctx, storage, await tickets.attachment(null, id, fileId));
  });
}

/** Streams an attached file; one past its retention answers 410 and why, as run outputs do. */
function sendTicketFile(reply: FastifyReply, ctx: AppContext, storage: FileStorage, file: TicketFile | undefined): FastifyReply {
  if (!file) throw new HttpError(404, 'ATTACHMENT_NOT_FOUND', 'No se ha encontrado este archivo en la consulta');
  if (!file.stored || isExpired(file.stored, ctx.now(), ctx.fileRetentionDays)) throw fileExpired(ctx.fileRetentionDays);
  return reply
    .header('content-type', file.stored.content_type)
    .header('content-length', file.stored.size)
    .header('content-disposition', attachment(file.name))
    .send(createReadStream(storage.pathOf(file.stored.storage_key)));
}

/** Constant-time, whatever the lengths: both sides are hashed to the same size first. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * POST /api/support/inbound: the raw RFC 822 reply, in its own plugin whose parser keeps the bytes
 * (≤ 10 MB). The token is checked before the body is read; without inbound settings the path is not here.
 */
async function registerInboundRoute(app: FastifyInstance, tickets: SupportTickets): Promise<void> {
  const { support } = tickets.deps;
  await app.register(async (scope) => {
    scope.addContentTypeParser('message/rfc822', { parseAs: 'buffer', bodyLimit: MAX_INBOUND_BYTES }, (_request, body, done) => done(null, body));
    scope.addHook('onRequest', async (request) => {
      if (!support.inbound) throw notFound();
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
      if (!token || !sameSecret(token, support.inbound.token)) throw new HttpError(401, 'UNAUTHENTICATED', 'Falta el token del servicio de correo, o no es válido');
    });
    const schema = routeSchema({ tag: 'support', summary: 'The mail service\'s hook: a support agent\'s emailed answer (raw RFC 822)', response: { 204: null } });
    scope.post(supportPaths.inbound, { schema }, async (request, reply) => {
      if (!support.inbound) throw notFound();
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
        throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Envía el correo completo con Content-Type: message/rfc822');
      }
      await receiveEmailAnswer(tickets, support.inbound, support.email, request.body);
      return reply.status(204).send();
    });
  });
}
