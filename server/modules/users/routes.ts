import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { emailField } from '#shared/api/fields.ts';
import { sessionResponseSchema } from '#shared/api/auth.ts';
import { emailCheckResponseSchema, registerRequestSchema, updateProfileRequestSchema } from '#shared/api/users.ts';
import { usersPaths } from '#shared/api/users-paths.ts';
import type { AppContext } from '../../context.ts';
import { unauthenticated, validationError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { requireSession, setSessionCookies } from '../../http/session.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { PasswordGuard } from '../auth/guard.ts';
import { assertStrongPassword } from '../auth/password-strength.ts';
import { checkCurrentPassword } from '../auth/service.ts';
import { createSession, revokeUserSessions } from '../auth/sessions.ts';
import { emailExists, findUserById, loadUserData, registerAccount, updateUser } from './service.ts';

const emailParamsSchema = z.object({ email: emailField });

/** Registration, the signed-in user's data and profile, and the sign-up email check. */
export function registerUsersRoutes(app: FastifyInstance, ctx: AppContext, passwords: PasswordGuard): void {
  const { db, now, cookieSecure } = ctx;

  async function userDataOrUnauthenticated(userId: string) {
    const userData = await loadUserData(db, userId);
    if (!userData) throw unauthenticated();
    return userData;
  }

  const registerSchema = routeSchema({ tag: 'users', summary: 'Register a firm and its first user, signed in', body: registerRequestSchema, response: { 201: sessionResponseSchema } });
  app.post(usersPaths.register, { schema: registerSchema, config: { rateLimit: perIp(ctx.signupsPerIpHour, 60 * 60_000) } }, async (request, reply) => {
    const body = parseInput(registerRequestSchema, request.body);
    await assertStrongPassword(body.password, 'password', [body.email, body.name]);
    const userId = await registerAccount(db, { ...body, language: request.client.language }, now());
    setSessionCookies(reply, await createSession(db, userId, now()), cookieSecure);
    return reply.status(201).send({ userData: await userDataOrUnauthenticated(userId) });
  });

  // The signed-in user's data, 401 without a session (the start-up restore asks GET /api/auth/session).
  app.get(usersPaths.me, { schema: routeSchema({ tag: 'users', summary: 'The signed-in user\'s data', response: { 200: sessionResponseSchema } }) }, async (request) => {
    const session = await requireSession(request, ctx);
    return { userData: await userDataOrUnauthenticated(session.userId) };
  });

  const updateSchema = routeSchema({
    tag: 'users',
    summary: 'Update the profile (name, language, password)',
    body: updateProfileRequestSchema,
    response: { 200: sessionResponseSchema },
  });
  app.put(usersPaths.update, { schema: updateSchema }, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(updateProfileRequestSchema, request.body);
    let passwordHash: string | undefined;
    if (body.newPassword !== undefined) {
      // A stolen session must not become an unlimited password oracle: the login's limits apply.
      const user = await findUserById(db, session.userId);
      if (!user) throw unauthenticated();
      const attempt = await passwords.attempt(reply, request.ip, user.email);
      if (!(await checkCurrentPassword(db, session.userId, body.currentPassword ?? ''))) {
        await attempt.failed();
        throw validationError([{ path: 'currentPassword', message: 'La contraseña actual no es correcta' }]);
      }
      await attempt.succeeded();
      await assertStrongPassword(body.newPassword, 'newPassword', [user.email, user.name, body.name ?? '']);
      passwordHash = await hashPassword(body.newPassword);
    }
    await updateUser(db, session.userId, { name: body.name, language: body.language, passwordHash }, now());
    // A new password signs out every other device, but keeps this one.
    if (passwordHash) await revokeUserSessions(db, session.userId, now(), session.familyId);
    return { userData: await userDataOrUnauthenticated(session.userId) };
  });

  const emailCheckSchema = routeSchema({ tag: 'users', summary: 'Whether an account has this email (sign-up)', params: emailParamsSchema, response: { 200: emailCheckResponseSchema } });
  app.get('/api/users/emailcheck/:email', { schema: emailCheckSchema, config: { rateLimit: perIp(60, 60_000) } }, async (request) => {
    const { email } = parseInput(emailParamsSchema, request.params);
    return { exists: await emailExists(db, email) };
  });
}
