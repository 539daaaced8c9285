import type { FastifyReply } from 'fastify';
import { formatMadridTime } from '#shared/time/madrid.ts';
import type { AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { retryLaterError, waitText } from '../../http/rate-limit.ts';
import { senderKey } from '../applogs/service.ts';
import { findUserByEmail } from '../users/service.ts';
import type { AuthLimits } from './limits.ts';
import { clearThrottle, hitThrottle } from './throttle.ts';

export interface PasswordAttempt {
  /** The right password: the account's failures are forgotten. */
  succeeded(): Promise<void>;
  /** A wrong one: if this failure locked the account, its owner gets an email. */
  failed(): Promise<void>;
}

function tooMany(reply: FastifyReply, retryAt: number, nowMs: number, accountLocked: boolean): HttpError {
  const waitMs = retryAt - nowMs;
  reply.header('retry-after', String(Math.max(1, Math.ceil(waitMs / 1000))));
  if (!accountLocked) return retryLaterError(waitMs);
  return new HttpError(
    429,
    'RATE_LIMITED',
    `Demasiados intentos fallidos con esta cuenta. Por seguridad, vuelve a intentarlo dentro de ${waitText(waitMs)} (a las ${formatMadridTime(new Date(retryAt))}).`,
  );
}

/**
 * Password guessing limits (login, and the current-password check of a profile change): built once in
 * app.ts with the limits, and given to the routes that check a password (auth, users).
 */
export class PasswordGuard {
  constructor(
    private readonly ctx: AppContext,
    private readonly limits: AuthLimits,
  ) {}

  /**
   * Counts a password attempt against the client, the client+account and the account before the
   * password is checked (so parallel guesses are counted too), and answers 429 with when to retry.
   * The same for unknown emails, so the limits do not tell which accounts exist.
   */
  async attempt(reply: FastifyReply, ip: string, email: string): Promise<PasswordAttempt> {
    const { ctx, limits } = this;
    const { db } = ctx;
    const nowMs = ctx.now().getTime();
    const client = senderKey(ip);
    const account = email.trim().toLowerCase();
    const keys = { ip: `pw:ip:${client}`, ipAccount: `pw:ip-account:${client}|${account}`, account: `pw:account:${account}` };

    const perIp = await hitThrottle(db, keys.ip, limits.perIp, nowMs);
    if (!perIp.allowed) throw tooMany(reply, perIp.retryAt, nowMs, false);
    const perIpAndAccount = await hitThrottle(db, keys.ipAccount, limits.perIpAndAccount, nowMs);
    if (!perIpAndAccount.allowed) throw tooMany(reply, perIpAndAccount.retryAt, nowMs, false);
    const perAccount = await hitThrottle(db, keys.account, limits.perAccount, nowMs);
    if (!perAccount.allowed) throw tooMany(reply, perAccount.retryAt, nowMs, true);

    return {
      succeeded: () => clearThrottle(db, [keys.ipAccount, keys.account]),
      async failed() {
        if (!perAccount.lockStarted) return;
        const user = await findUserByEmail(db, account);
        if (!user) return;
        const until = formatMadridTime(new Date(nowMs + limits.perAccount.lockMs));
        try {
          await ctx.mailer.sendNotice({
            to: user.email,
            purpose: 'account_locked',
            subject: 'Hemos bloqueado temporalmente el acceso a tu cuenta de AutoAsesor',
            text:
              `Hola ${user.name}:\n\nHa habido ${limits.perAccount.lockAt} intentos fallidos de iniciar sesión en tu cuenta, así que hemos ` +
              `bloqueado el acceso hasta las ${until} (hora de Madrid).\n\nSi has sido tú, espera a esa hora o restablece tu contraseña ` +
              `desde «¿Has olvidado tu contraseña?». Si no has sido tú, te recomendamos cambiarla en ${ctx.publicUrl}.`,
          });
        } catch (error) {
          // The lock holds either way; a mail server hiccup must not turn the 401 into a 500.
          reply.log.error({ err: error }, 'No se ha podido enviar el aviso de bloqueo');
        }
      },
    };
  }
}
