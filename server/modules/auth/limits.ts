import type { ThrottleRule } from './throttle.ts';

/** Limits on password guessing (login and the current-password check of a profile change). */
export interface AuthLimits {
  /** One client guessing one account. */
  perIpAndAccount: ThrottleRule;
  /** Any number of clients guessing one account: slow-down, then a lock-out the owner is told about. */
  perAccount: ThrottleRule;
  /** One client trying many accounts (password spraying). */
  perIp: ThrottleRule;
  /** Password-reset mails one address may receive per day (besides the per-minute route limit). */
  resetMailsPerDay: number;
  /** How often finished sessions, links and counters are purged (purge.ts). */
  purgeEveryMs: number;
}

const MINUTE = 60_000;

export function resolveAuthLimits(login: { max: number; timeWindowMs: number }, overrides: Partial<AuthLimits> = {}): AuthLimits {
  return {
    perIpAndAccount: { windowMs: login.timeWindowMs, freeHits: login.max, stepMs: 0, lockAt: login.max, lockMs: login.timeWindowMs },
    // 5 free tries, then 2 s, 4 s, … between tries; the 20th failure in an hour locks for 15 minutes.
    perAccount: { windowMs: 60 * MINUTE, freeHits: 5, stepMs: 2_000, lockAt: 20, lockMs: 15 * MINUTE },
    // One office behind one address rarely signs in 30 times a minute; a sprayer did 58 a second.
    perIp: { windowMs: MINUTE, freeHits: 30, stepMs: 0, lockAt: 30, lockMs: MINUTE },
    resetMailsPerDay: 10,
    purgeEveryMs: 60 * MINUTE,
    ...overrides,
  };
}

/** The longest window of any auth counter, for purging finished ones. */
export function longestWindowMs(limits: AuthLimits): number {
  return Math.max(24 * 60 * MINUTE, ...[limits.perIp, limits.perAccount, limits.perIpAndAccount].map((rule) => rule.windowMs));
}
