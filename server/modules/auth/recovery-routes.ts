import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { authPaths } from '#shared/api/auth-paths.ts';
import { emailValidationRequestSchema, okResponseSchema, resetPassCheckRequestSchema, resetPassRequestSchema } from '#shared/api/auth.ts';
import { emailField } from '#shared/api/fields.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { routeSchema } from '../../http/openapi.ts';
import { parseInput } from '../../http/parse.ts';
import { perIp, perIpAndEmail } from '../../http/rate-limit.ts';
import { requireSession } from '../../http/session.ts';
import { findUserById } from '../users/service.ts';
import type { AuthLimits } from './limits.ts';
import { hitThrottle } from './throttle.ts';
import { checkResetToken, completeEmailValidation, completePasswordReset, startEmailValidation, startPasswordReset } from './service.ts';

const emailParamsSchema = z.object({ email: emailField });
const DAY_MS = 24 * 60 * 60 * 1000;
const MAIL_FAILED = () => new HttpError(502, 'EMAIL_FAILED', 'Ha ocurrido un error al enviar el correo');

/** Password reset by emailed link, and email validation. */
export function registerRecoveryRoutes(app: FastifyInstance, ctx: AppContext, limits: Pick<AuthLimits, 'resetMailsPerDay'>): void {
  const { db, now, mailer, publicUrl } = ctx;

  // Always 202: the answer never tells whether an account has this email.
  const resetPassSchema = routeSchema({ tag: 'auth', summary: 'Email a password reset link (always 202)', body: resetPassRequestSchema, response: { 202: okResponseSchema } });
  app.post(authPaths.resetPass, { schema: resetPassSchema, config: { rateLimit: perIpAndEmail(5, 60_000) } }, async (request, reply) => {
    const { email } = parseInput(resetPassRequestSchema, request.body);
    // Per address and day, in the database: the per-minute limit alone let anyone mail-bomb an
    // address all day. Over the cap the answer is the same 202, so it tells nothing either.
    const daily = limits.resetMailsPerDay;
    const cap = await hitThrottle(db, `mail:reset:${email}`, { windowMs: DAY_MS, freeHits: daily, stepMs: 0, lockAt: daily, lockMs: DAY_MS }, now().getTime());
    if (!cap.allowed) {
      request.log.warn({ mail: { purpose: 'reset_password', capped: true } }, 'Límite diario de correos de restablecimiento alcanzado');
      return reply.status(202).send({ ok: true });
    }
    const reset = await startPasswordReset(db, email, now());
    if (reset) {
      const link = `${publicUrl}/auth/reset?token=${encodeURIComponent(reset.token)}`;
      try {
        await mailer.sendLink({
          to: reset.email,
          purpose: 'reset_password',
          link,
          subject: 'Restablece tu contraseña de AutoAsesor',
          text: `Hemos recibido una solicitud para restablecer tu contraseña.\n\nAbre este enlace (válido durante 1 hora):\n${link}\n\nSi no la has pedido tú, ignora este correo.`,
        });
      } catch (error) {
        request.log.error({ err: error }, 'No se ha podido enviar el correo de restablecimiento');
      }
    }
    return reply.status(202).send({ ok: true });
  });

  const resetPassCheckSchema = routeSchema({
    tag: 'auth',
    summary: 'Check a reset link, or set the new password with it',
    body: resetPassCheckRequestSchema,
    response: { 200: okResponseSchema },
  });
  app.post(authPaths.resetPassCheck, { schema: resetPassCheckSchema, config: { rateLimit: perIpAndEmail(20, 60_000) } }, async (request) => {
    const { token, password } = parseInput(resetPassCheckRequestSchema, request.body);
    if (password === undefined) await checkResetToken(db, token, now());
    else await completePasswordReset(db, token, password, now());
    return { ok: true };
  });

  // With the link's token no session is needed (links are often opened on a phone); without one it
  // sends the link, and only to the signed-in account's own email.
  const emailValidationSchema = routeSchema({
    tag: 'auth',
    summary: 'Email a validation link (signed in), or validate the email with the link\'s token',
    params: emailParamsSchema,
    body: emailValidationRequestSchema,
    response: { 200: okResponseSchema, 202: okResponseSchema },
  });
  app.post('/api/auth/emailvalidation/:email', { schema: emailValidationSchema, config: { rateLimit: perIp(10, 60_000) } }, async (request, reply) => {
    const { email } = parseInput(emailParamsSchema, request.params);
    const { token } = parseInput(emailValidationRequestSchema, request.body);
    if (token !== undefined) {
      await completeEmailValidation(db, email, token, now());
      return { ok: true };
    }
    const session = await requireSession(request, ctx);
    const user = await findUserById(db, session.userId);
    if (!user || user.email !== email) throw new HttpError(403, 'FORBIDDEN', 'Solo puedes validar el email de tu cuenta');
    const issued = await startEmailValidation(db, user.id, now());
    const link = `${publicUrl}/auth/emailvalidation?email=${encodeURIComponent(user.email)}&token=${encodeURIComponent(issued)}`;
    try {
      await mailer.sendLink({
        to: user.email,
        purpose: 'email_validation',
        link,
        subject: 'Confirma tu email de AutoAsesor',
        text: `Hola ${user.name}:\n\nConfirma tu dirección de correo abriendo este enlace (válido durante 24 horas):\n${link}`,
      });
    } catch (error) {
      request.log.error({ err: error }, 'No se ha podido enviar el correo de validación');
      throw MAIL_FAILED();
    }
    return reply.status(202).send({ ok: true });
  });
}
