import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { emailField } from '#shared/api/fields.ts';
import { registerRequestSchema, updateProfileRequestSchema, usersPaths } from '#shared/api/users.ts';
import type { AppContext } from '../../context.ts';
import { unauthenticated, validationError } from '../../http/errors.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp } from '../../http/rate-limit.ts';
import { requireSession, setSessionCookies } from '../../http/session.ts';
import { hashPassword } from '../auth/passwords.ts';
import { guardPasswordAttempt } from '../auth/guard.ts';
import { assertStrongPassword } from '../auth/password-strength.ts';
import { checkCurrentPassword } from '../auth/service.ts';
import { createSession, revokeUserSessions } from '../auth/sessions.ts';
import { emailExists, findUserById, loadUserData, registerAccount, updateUser } from './service.ts';

const emailParamsSchema = z.object({ email: emailField });

/** Registration, the signed-in user's data and profile, and the sign-up email check. */
export function registerUsersRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db, now, cookieSecure } = ctx;

  async function userDataOrUnauthenticated(userId: string) {
    const userData = await loadUserData(db, userId);
    if (!userData) throw unauthenticated();
    return userData;
  }

  app.post(usersPaths.register, { config: { rateLimit: perIp(50, 60 * 60_000) } }, async (request, reply) => {
    const body = parseInput(registerRequestSchema, request.body);
    await assertStrongPassword(body.password, 'password', [body.email, body.name]);
    const userId = await registerAccount(db, { ...body, language: request.client.language }, now());
    setSessionCookies(reply, await createSession(db, userId, now()), cookieSecure);
    return reply.status(201).send({ userData: await userDataOrUnauthenticated(userId) });
  });

  // Restores the session on start-up: 401 when there is none, and the renderer tries one refresh.
  app.get(usersPaths.me, async (request) => {
    const session = await requireSession(request, ctx);
    return { userData: await userDataOrUnauthenticated(session.userId) };
  });

  app.put(usersPaths.update, async (request, reply) => {
    const session = await requireSession(request, ctx);
    const body = parseInput(updateProfileRequestSchema, request.body);
    let passwordHash: string | undefined;
    if (body.newPassword !== undefined) {
      // A stolen session must not become an unlimited password oracle: the login's limits apply.
      const user = await findUserById(db, session.userId);
      if (!user) throw unauthenticated();
      const attempt = await guardPasswordAttempt(ctx, reply, request.ip, user.email);
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

  app.get('/api/users/emailcheck/:email', { config: { rateLimit: perIp(60, 60_000) } }, async (request) => {
    const { email } = parseInput(emailParamsSchema, request.params);
    return { exists: await emailExists(db, email) };
  });
}
