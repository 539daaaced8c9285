import type { FastifyReply } from 'fastify';
import { formatMadridTime } from '#shared/time/madrid.ts';
import type { AppContext } from '../../context.ts';
import type { NoticeEmail } from '../../mail/mailer.ts';
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
 * Whose passwords a guard counts. Advisors' accounts by default (login, profile); a firm's client
 * companies on its public form pass their own (modules/altas).
 */
export interface GuardedAccounts {
  /** Prefix of the counters' keys, so each kind of account counts apart. */
  prefix: string;
  /**
   * 'account': enough failures from any clients lock the account for every client (advisors, who can
   * reset their password). 'client': the lock holds for the guessing client only (per account and IP),
   * so whoever knows an account's address cannot lock its owner out from elsewhere.
   */
  lockScope: 'account' | 'client';
  /** The notice to the account's owner once a lock starts, or null when no such account exists. */
  lockNotice(account: string, until: string, failures: number): Promise<Omit<NoticeEmail, 'purpose'> | null>;
}

/** Advisors' accounts: locked for everyone, the owner told by mail. */
function advisorAccounts(ctx: AppContext): GuardedAccounts {
  return {
    prefix: 'pw',
    lockScope: 'account',
    async lockNotice(account, until, failures) {
      const user = await findUserByEmail(ctx.db, account);
      if (!user) return null;
      return {
        to: user.email,
        subject: 'Hemos bloqueado temporalmente el acceso a tu cuenta de AutoAsesor',
        text:
          `Hola ${user.name}:\n\nHa habido ${failures} intentos fallidos de iniciar sesión en tu cuenta, así que hemos ` +
          `bloqueado el acceso hasta las ${until} (hora de Madrid).\n\nSi has sido tú, espera a esa hora o restablece tu contraseña ` +
          `desde «¿Has olvidado tu contraseña?». Si no has sido tú, te recomendamos cambiarla en ${ctx.publicUrl}.`,
      };
    },
  };
}

/**
 * Password guessing limits (login, the current-password check of a profile change, the altas form's
 * sign-in): built once in app.ts with the limits, and given to the routes that check a password.
 */
export class PasswordGuard {
  private readonly advisors: GuardedAccounts;

  constructor(
    private readonly ctx: AppContext,
    private readonly limits: AuthLimits,
  ) {
    this.advisors = advisorAccounts(ctx);
  }

  /**
   * Counts a password attempt against the client, the client+account and (scope 'account') the
   * account before the password is checked (so parallel guesses are counted too), and answers 429
   * with when to retry. The same for unknown accounts, so the limits do not tell which exist.
   */
  async attempt(reply: FastifyReply, ip: string, email: string, accounts: GuardedAccounts = this.advisors): Promise<PasswordAttempt> {
    const { ctx, limits } = this;
    const { db } = ctx;
    const nowMs = ctx.now().getTime();
    const client = senderKey(ip);
    const account = email.trim().toLowerCase();
    const { prefix } = accounts;
    const keys = { ip: `${prefix}:ip:${client}`, ipAccount: `${prefix}:ip-account:${client}|${account}`, account: `${prefix}:account:${account}` };

    const perIp = await hitThrottle(db, keys.ip, limits.perIp, nowMs);
    if (!perIp.allowed) throw tooMany(reply, perIp.retryAt, nowMs, false);
    // Scope 'client': the account's slow-down and lock apply to this client's guesses only.
    const clientScoped = accounts.lockScope === 'client';
    const perIpAndAccount = await hitThrottle(db, keys.ipAccount, clientScoped ? limits.perAccount : limits.perIpAndAccount, nowMs);
    if (!perIpAndAccount.allowed) throw tooMany(reply, perIpAndAccount.retryAt, nowMs, clientScoped);
    const perAccount = clientScoped ? perIpAndAccount : await hitThrottle(db, keys.account, limits.perAccount, nowMs);
    if (!perAccount.allowed) throw tooMany(reply, perAccount.retryAt, nowMs, true);

    return {
      succeeded: () => clearThrottle(db, clientScoped ? [keys.ipAccount] : [keys.ipAccount, keys.account]),
      async failed() {
        if (!perAccount.lockStarted) return;
        const until = formatMadridTime(new Date(nowMs + limits.perAccount.lockMs));
        try {
          const notice = await accounts.lockNotice(account, until, limits.perAccount.lockAt);
          if (notice) await ctx.mailer.sendNotice({ ...notice, purpose: 'account_locked' });
        } catch (error) {
          // The lock holds either way; a mail server hiccup must not turn the 401 into a 500.
          reply.log.error({ err: error }, 'No se ha podido enviar el aviso de bloqueo');
        }
      },
    };
  }
}
