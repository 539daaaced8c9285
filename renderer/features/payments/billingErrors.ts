import { asHttpError } from '../../ui/forms.ts';
import { billing } from '../../i18n/es-billing.ts';

/**
 * The server's own Spanish reason when it gave one (a 409 LAST_CARD, a 409 PAYMENTS_NOT_CONFIGURED, a
 * 502 STRIPE_UNAVAILABLE…), else ours: every billing error body carries a message meant for the user.
 */
export function billingErrorMessage(error: unknown, fallback: string = billing.unexpected): string {
  const http = asHttpError(error);
  return http?.data?.issues?.[0]?.message ?? http?.data?.message ?? fallback;
}

/** The error's code from the server ('PAYMENTS_NOT_CONFIGURED'), if it sent one. */
export const billingErrorCode = (error: unknown): string | undefined => asHttpError(error)?.data?.code;
