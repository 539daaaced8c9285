import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { ACCESS_TTL_MS, REFRESH_TTL_MS, findActiveSession, type ActiveSession, type IssuedTokens } from '../modules/auth/sessions.ts';
import { unauthenticated } from './errors.ts';

export const ACCESS_COOKIE = 'aa_session';
export const REFRESH_COOKIE = 'aa_refresh';
/** The refresh cookie is only ever sent to the auth endpoints. */
const REFRESH_PATH = '/api/auth';

export function setSessionCookies(reply: FastifyReply, tokens: IssuedTokens, secure: boolean): void {
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: ACCESS_TTL_MS / 1000 });
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, { httpOnly: true, sameSite: 'strict', path: REFRESH_PATH, secure, maxAge: REFRESH_TTL_MS / 1000 });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(ACCESS_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure });
  reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', path: REFRESH_PATH, secure });
}

export function refreshTokenOf(request: FastifyRequest): string | undefined {
  return request.cookies[REFRESH_COOKIE] || undefined;
}

/**
 * The signed-in session of this request, or null. Never throws for a missing or stale cookie.
 * Not async itself: every signed-in request asks it, and a promise handed on is one await fewer.
 */
export function optionalSession(request: FastifyRequest, ctx: AppContext): Promise<ActiveSession | null> {
  const token = request.cookies[ACCESS_COOKIE];
  return token ? findActiveSession(ctx.db, token, ctx.now()) : Promise.resolve(null);
}

/** The signed-in session, or a 401 'UNAUTHENTICATED' the renderer answers with one refresh. */
export async function requireSession(request: FastifyRequest, ctx: AppContext): Promise<ActiveSession> {
  const session = await optionalSession(request, ctx);
  if (!session) throw unauthenticated();
  return session;
}
