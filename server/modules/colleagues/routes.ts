import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { sessionResponseSchema } from '#shared/api/auth.ts';
import {
  COLLEAGUE_NOT_FOUND_MESSAGE, INVITATION_NOT_FOUND_MESSAGE, acceptInvitationSchema, colleaguesPaths, colleaguesSchema, invitationPreviewSchema, invitationSchema,
  newInvitationSchema,
} from '#shared/api/colleagues.ts';
import type { AppContext } from '../../context.ts';
import { unauthenticated } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { requireSession, setSessionCookies } from '../../http/session.ts';
import type { PasswordGuard } from '../auth/guard.ts';
import { createSession } from '../auth/sessions.ts';
import { loadUserData } from '../users/service.ts';
import { colleagueNotFound, invitationNotFound } from './errors.ts';
import type { Colleagues } from './service.ts';

const tag = 'colleagues';

const userParamsSchema = z.object({ userId: z.string().check(z.uuid(COLLEAGUE_NOT_FOUND_MESSAGE)) });
const invitationParamsSchema = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, INVITATION_NOT_FOUND_MESSAGE)) });
// The token's format is checked by the service, so a malformed link answers 404 like an unknown one.
const tokenParamsSchema = z.object({ token: z.string().check(z.maxLength(256, INVITATION_NOT_FOUND_MESSAGE)) });

/** An id that cannot be one of ours names nothing: 404, as another firm's would. */
function parsedOr404<Schema extends z.core.$ZodType>(schema: Schema, input: unknown, notFound: () => Error): z.output<Schema> {
  const result = z.safeParse(schema, input);
  if (!result.success) throw notFound();
  return result.data;
}

/** Opening a link and joining are rare; this stops a script guessing, not a person retrying. */
const PUBLIC_RATE_LIMIT = perIp(30, 60_000);
/**
 * Inviting: a few a day per firm (INVITATIONS_PER_DAY caps what is sent); this bounds the attempts the
 * cap does not count (refusals about the caller's own firm), so the route cannot be used for lookups.
 */
export const INVITE_RATE_LIMIT_PER_MINUTE = 30;
const INVITE_RATE_LIMIT = perIp(INVITE_RATE_LIMIT_PER_MINUTE, 60_000);

/** The owner's colleague routes and the public invitation routes (preview, accept). */
export function registerColleaguesRoutes(app: FastifyInstance, ctx: AppContext, colleagues: Colleagues, _passwords: PasswordGuard): void {
  const { db, now, cookieSecure } = ctx;

  const listSchema = routeSchema({ tag, summary: "The firm's members and pending invitations, and whether the caller manages them", response: { 200: colleaguesSchema } });
  app.get(colleaguesPaths.colleagues, { schema: listSchema }, async (request) => colleagues.list(await requireSession(request, ctx)));

  const inviteSchema = routeSchema({ tag, summary: "Invite an advisor by email to join the firm (owner only); the link is emailed. Another firm's account is invited like an unknown address", body: newInvitationSchema, response: { 201: invitationSchema } });
  app.post(colleaguesPaths.invitations, { schema: inviteSchema, config: { rateLimit: INVITE_RATE_LIMIT } }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { email } = parseInput(newInvitationSchema, request.body);
    return reply.status(201).send(await colleagues.invite(session, email));
  });

  const revokeSchema = routeSchema({ tag, summary: 'Revoke a pending invitation (owner only); its link stops working', params: invitationParamsSchema, response: { 204: null } });
  app.delete(colleaguesPaths.invitation, { schema: revokeSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { id } = parsedOr404(invitationParamsSchema, request.params, invitationNotFound);
    await colleagues.revoke(session, id);
    return reply.status(204).send();
  });

  const removeSchema = routeSchema({ tag, summary: 'Remove a colleague (owner only): no more sign-in, sessions revoked, schedules deleted, runs kept', params: userParamsSchema, response: { 204: null } });
  app.delete(colleaguesPaths.colleague, { schema: removeSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { userId } = parsedOr404(userParamsSchema, request.params, colleagueNotFound);
    await colleagues.remove(session, userId);
    return reply.status(204).send();
  });

  const previewSchema = routeSchema({ tag, summary: 'Public: what an invitation link offers (firm, email, who invited, expiry)', params: tokenParamsSchema, response: { 200: invitationPreviewSchema } });
  app.get(colleaguesPaths.invitationByToken, { schema: previewSchema, config: { rateLimit: PUBLIC_RATE_LIMIT } }, async (request) => {
    const { token } = parsedOr404(tokenParamsSchema, request.params, invitationNotFound);
    return colleagues.preview(token);
  });

  const acceptSchema = routeSchema({ tag, summary: 'Public: join the firm with an invitation link, signed in (single use)', params: tokenParamsSchema, body: acceptInvitationSchema, response: { 201: sessionResponseSchema } });
  app.post(colleaguesPaths.acceptInvitation, { schema: acceptSchema, config: { rateLimit: PUBLIC_RATE_LIMIT } }, async (request, reply) => {
    const { token } = parsedOr404(tokenParamsSchema, request.params, invitationNotFound);
    const body = parseInput(acceptInvitationSchema, request.body);
    const userId = await colleagues.accept(token, body, request.client.language);
    setSessionCookies(reply, await createSession(db, userId, now()), cookieSecure);
    const userData = await loadUserData(db, userId);
    if (!userData) throw unauthenticated();
    return reply.status(201).send({ userData });
  });
}
