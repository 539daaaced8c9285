import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loginRequestSchema, okResponseSchema, sessionResponseSchema, sessionStateResponseSchema } from '#shared/api/auth.ts';
import { authPaths } from '#shared/api/auth-paths.ts';
import { ACCOUNT_REMOVED_MESSAGE } from '#shared/api/colleagues.ts';
import type { UserData } from '#shared/domain/user.ts';
import type { AppContext } from '../../context.ts';
import { unauthenticated } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { clearSessionCookies, optionalSession, refreshTokenOf, setSessionCookies } from '../../http/session.ts';
import { loadUserData } from '../users/service.ts';
import type { PasswordGuard } from './guard.ts';
import type { AuthLimits } from './limits.ts';
import { schedulePurge } from './purge.ts';
import { ACCOUNT_REMOVED, checkCredentials } from './service.ts';
import { createSession, familyOfRefreshToken, refreshTokenOfRemovedUser, revokeFamily, rotateSession } from './sessions.ts';

export const SECURITY_LOGOUT_REASON = 'Tu sesión se ha cerrado por seguridad. Vuelve a iniciar sesión.';

/** Login, logout and refresh-token rotation; the purge of what they leave behind. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, limits: AuthLimits, passwords: PasswordGuard): void {
  const { db, now, cookieSecure } = ctx;
  schedulePurge(app, ctx, limits);

  // Limited by database-held counters (guard.ts), not the in-memory rate-limit plugin, whose LRU an
  // attacker could flush with junk keys.
  const loginSchema = routeSchema({ tag: 'auth', summary: 'Sign in: sets the session cookies', body: loginRequestSchema, response: { 200: sessionResponseSchema } });
  app.post(authPaths.login, { schema: loginSchema }, async (request, reply) => {
    const { email, password } = parseInput(loginRequestSchema, request.body);
    const attempt = await passwords.attempt(reply, request.ip, email);
    let userId: string;
    try {
      userId = await checkCredentials(db, email, password);
    } catch (error) {
      await attempt.failed();
      throw error;
    }
    await attempt.succeeded();
    setSessionCookies(reply, await createSession(db, userId, now()), cookieSecure);
    return { userData: await loadUserData(db, userId) };
  });

  app.post(authPaths.logout, { schema: routeSchema({ tag: 'auth', summary: 'Sign out: ends the session family and clears the cookies', response: { 200: okResponseSchema } }) }, async (request, reply) => {
    // The access cookie may have expired while the refresh cookie still names the family.
    const session = await optionalSession(request, ctx);
    const refreshToken = refreshTokenOf(request);
    const familyId = session?.familyId ?? (refreshToken ? await familyOfRefreshToken(db, refreshToken) : null);
    if (familyId) await revokeFamily(db, familyId, now());
    clearSessionCookies(reply, cookieSecure);
    return { ok: true };
  });

  /**
   * Rotates the session with the refresh cookie: the user with fresh cookies, or why it ended (cookies
   * cleared when the token was refused; a reused token ended its family, which the user is told).
   */
  async function renewSession(request: FastifyRequest, reply: FastifyReply): Promise<{ userData: UserData } | { userData: null; logoutReason?: string }> {
    const refreshToken = refreshTokenOf(request);
    if (!refreshToken) return { userData: null };
    // A removed colleague is told why, not that the session was stolen.
    if (await refreshTokenOfRemovedUser(db, refreshToken)) {
      clearSessionCookies(reply, cookieSecure);
      return { userData: null, logoutReason: ACCOUNT_REMOVED_MESSAGE };
    }
    const result = await rotateSession(db, refreshToken, now());
    if (result.kind !== 'rotated') {
      clearSessionCookies(reply, cookieSecure);
      return result.kind === 'reused' ? { userData: null, logoutReason: SECURITY_LOGOUT_REASON } : { userData: null };
    }
    const userData = await loadUserData(db, result.userId);
    if (!userData) {
      clearSessionCookies(reply, cookieSecure);
      return { userData: null };
    }
    setSessionCookies(reply, result.tokens, cookieSecure);
    return { userData };
  }

  const newTokenSchema = routeSchema({ tag: 'auth', summary: 'Rotate the session with the refresh cookie', response: { 200: sessionResponseSchema } });
  app.post(authPaths.newToken, { schema: newTokenSchema }, async (request, reply) => {
    const renewed = await renewSession(request, reply);
    if (renewed.userData === null && renewed.logoutReason === ACCOUNT_REMOVED_MESSAGE) throw ACCOUNT_REMOVED();
    if (renewed.userData === null) throw unauthenticated(renewed.logoutReason);
    return { userData: renewed.userData };
  });

  // The restore on start-up: who is signed in, or null, always a 200 — a signed-out first load must not
  // log failed requests in the browser's console (issue 21). An expired access cookie is renewed here
  // with the refresh cookie, as POST newtoken would.
  const sessionSchema = routeSchema({ tag: 'auth', summary: 'The current session\'s user, or null when signed out', response: { 200: sessionStateResponseSchema } });
  app.get(authPaths.session, { schema: sessionSchema }, async (request, reply) => {
    const session = await optionalSession(request, ctx);
    const current = session ? await loadUserData(db, session.userId) : null;
    return current ? { userData: current } : renewSession(request, reply);
  });
}
