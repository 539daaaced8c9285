import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import {
  desktopClientsSchema, mailAccountSchema, mailAccountsResponseSchema, mailPaths, oauthCompleteRequestSchema, oauthDesktopRequestSchema, oauthStartRequestSchema, oauthStartResponseSchema,
} from '#shared/api/mail.ts';
import type { AppContext } from '../../context.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { requireSession } from '../../http/session.ts';
import type { MailAccounts } from './accounts.ts';

const accountParamsSchema = z.object({ id: z.string().check(z.uuid('El identificador de la cuenta de correo no es válido')) });

/** Linking is a few clicks a month per advisor; this stops a script, not a person retrying. */
const OAUTH_RATE_LIMIT = perIp(30, 60_000);

/**
 * The firm's linked mailboxes (shared/api/mail.ts): list, unlink, and the OAuth web and desktop
 * completions. HTTP only; MailAccounts does the work. No response carries a token.
 */
export function registerMailAccountRoutes(app: FastifyInstance, ctx: AppContext, accounts: MailAccounts): void {
  const tag = 'mail';

  const listSchema = routeSchema({ tag, summary: "The firm's linked mail accounts, the caller's first (no tokens)", response: { 200: mailAccountsResponseSchema } });
  app.get(mailPaths.accounts, { schema: listSchema }, async (request) => ({ items: await accounts.list(await requireSession(request, ctx)) }));

  const deleteSchema = routeSchema({ tag, summary: 'Unlink a mail account of the firm (revoked at Google where possible)', params: accountParamsSchema, response: { 204: null } });
  app.delete(mailPaths.account, { schema: deleteSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const { id } = parseInput(accountParamsSchema, request.params);
    await accounts.remove(session, id);
    return reply.status(204).send();
  });

  const clientsSchema = routeSchema({ tag, summary: "The desktop app's OAuth client at each provider (public: ids and addresses), for OAuthConnect", response: { 200: desktopClientsSchema } });
  app.get(mailPaths.oauthDesktopClients, { schema: clientsSchema }, async (request) => {
    await requireSession(request, ctx);
    return accounts.desktopClients();
  });

  const startSchema = routeSchema({ tag, summary: "Start the web OAuth flow: where to send the browser (state and PKCE kept ten minutes)", body: oauthStartRequestSchema, response: { 200: oauthStartResponseSchema } });
  app.post(mailPaths.oauthStart, { schema: startSchema, config: { rateLimit: OAUTH_RATE_LIMIT } }, async (request) => {
    const session = await requireSession(request, ctx);
    return accounts.startWeb(session, parseInput(oauthStartRequestSchema, request.body));
  });

  const completeSchema = routeSchema({ tag, summary: 'Complete the web OAuth flow with what /oauth-response received (single-use state of the caller)', body: oauthCompleteRequestSchema, response: { 201: mailAccountSchema } });
  app.post(mailPaths.oauthComplete, { schema: completeSchema, config: { rateLimit: OAUTH_RATE_LIMIT } }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const account = await accounts.completeWeb(session, parseInput(oauthCompleteRequestSchema, request.body));
    return reply.status(201).send(account);
  });

  const desktopSchema = routeSchema({ tag, summary: "Redeem the desktop loopback flow's code with its PKCE verifier (OAuthConnect)", body: oauthDesktopRequestSchema, response: { 201: mailAccountSchema } });
  app.post(mailPaths.oauthDesktop, { schema: desktopSchema, config: { rateLimit: OAUTH_RATE_LIMIT } }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const account = await accounts.completeDesktop(session, parseInput(oauthDesktopRequestSchema, request.body));
    return reply.status(201).send(account);
  });
}
