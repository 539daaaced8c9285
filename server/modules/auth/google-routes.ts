import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { authPaths } from '#shared/api/auth-paths.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { setSessionCookies } from '../../http/session.ts';
import type { GoogleSignIn } from './google.ts';
import { createSession } from './sessions.ts';

const tag = 'auth';

export const GOOGLE_NOT_CONFIGURED_MESSAGE = 'El acceso con Google no está configurado en este servidor';
/** Where a refused sign-in lands: the sign-in page says why. */
export const GOOGLE_REFUSED_PAGE = '/auth';

const statusSchema = z.object({ enabled: z.boolean() });
const startQuerySchema = z.object({ redirect: z.optional(z.string().check(z.maxLength(2_000))) });
/** Google's answer: code and state, or error; anything else it adds (scope, authuser, prompt…) is let through. */
const callbackQuerySchema = z.record(z.string().check(z.maxLength(64)), z.string().check(z.maxLength(4_096)));

/** A person clicks this a few times a day; a script trying states or codes is stopped. */
const GOOGLE_RATE_LIMIT = perIp(30, 60_000);

/** Sign in with Google (issue 40 §5): whether it is offered, the start, and Google's callback. */
export function registerGoogleSignInRoutes(app: FastifyInstance, ctx: AppContext, google: GoogleSignIn): void {
  const { db, now, cookieSecure } = ctx;

  const getStatus = routeSchema({ tag, summary: "Whether 'Continuar con Google' is offered (no settings or secrets shown)", response: { 200: statusSchema } });
  app.get(authPaths.googleStatus, { schema: getStatus }, async () => ({ enabled: google.enabled }));

  const startSchema = routeSchema({
    tag, summary: "Start signing in with Google: 302 to Google (PKCE, state and nonce kept ten minutes); 404 when it is not configured",
    querystring: startQuerySchema, response: { 302: null },
  });
  app.get(authPaths.googleStart, { schema: startSchema, config: { rateLimit: GOOGLE_RATE_LIMIT } }, async (request, reply) => {
    const { redirect } = parseInput(startQuerySchema, request.query);
    if (!google.enabled) throw new HttpError(404, 'GOOGLE_NOT_CONFIGURED', GOOGLE_NOT_CONFIGURED_MESSAGE);
    const location = await google.start(redirect);
    if (!location) throw new HttpError(404, 'GOOGLE_NOT_CONFIGURED', GOOGLE_NOT_CONFIGURED_MESSAGE);
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  });

  const callbackSchema = routeSchema({
    tag, summary: "Google's answer: signs an existing account in and 302s to the saved path, or 302s to /auth?google=<reason> (no account is ever made here)",
    querystring: callbackQuerySchema, response: { 302: null },
  });
  app.get(authPaths.googleCallback, { schema: callbackSchema, config: { rateLimit: GOOGLE_RATE_LIMIT } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const query = z.safeParse(callbackQuerySchema, request.query ?? {});
    const result = query.success ? await google.callback(query.data) : ({ kind: 'refused', reason: 'failed' } as const);
    if (result.kind === 'refused') return reply.redirect(`${GOOGLE_REFUSED_PAGE}?google=${result.reason}`, 302);
    setSessionCookies(reply, await createSession(db, result.userId, now()), cookieSecure);
    return reply.redirect(result.redirectTo, 302);
  });
}
