import { z } from 'zod/mini';

export const DEFAULT_SUPPORT_EMAIL = 'soporte@autoasesor.es';

/**
 * Answering tickets by replying to their emails: the mail service posts the agent's reply to
 * /api/support/inbound with `token`, and `replySecret` signs each ticket's reply address.
 */
export interface SupportInboundConfig {
  token: string;
  replySecret: string;
  /**
   * The inbound mail service's own name(s) in Authentication-Results (RFC 8601 authserv-id): only its
   * verdicts count, since a sender can write a header of that name into the message itself.
   */
  authservIds: string[];
}

export interface SupportConfig {
  email: string;
  /** Set when SUPPORT_INBOUND_TOKEN and SUPPORT_REPLY_SECRET are; absent (or null): no answers by email. */
  inbound?: SupportInboundConfig | null;
}

const supportEmailSchema = z.email();

/** Short secrets could be guessed; 16 characters is the least either may have. */
const MIN_SECRET_LENGTH = 16;

/**
 * SUPPORT_EMAIL, or the default address when unset or blank. A value that is not an address stops
 * the server at start-up, rather than sending users to write to nowhere. SUPPORT_INBOUND_TOKEN,
 * SUPPORT_REPLY_SECRET and SUPPORT_INBOUND_AUTHSERV_ID come together or not at all: without any one of
 * them answers by email would half work, or trust a forgeable header.
 */
export function supportConfigFromEnv(env: Record<string, string | undefined>): SupportConfig {
  const inbound = inboundConfigFromEnv(env);
  const raw = env.SUPPORT_EMAIL?.trim();
  const email = raw ? parseEmail(raw) : DEFAULT_SUPPORT_EMAIL;
  return inbound ? { email, inbound } : { email };
}

function parseEmail(raw: string): string {
  const parsed = supportEmailSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`SUPPORT_EMAIL no es una dirección de correo válida: "${raw}"`);
  return parsed.data;
}

function inboundConfigFromEnv(env: Record<string, string | undefined>): SupportInboundConfig | null {
  const token = env.SUPPORT_INBOUND_TOKEN?.trim() ?? '';
  const replySecret = env.SUPPORT_REPLY_SECRET?.trim() ?? '';
  const authservIds = (env.SUPPORT_INBOUND_AUTHSERV_ID ?? '').split(',').map((id) => id.trim()).filter((id) => id !== '');
  if (!token && !replySecret && authservIds.length === 0) return null;
  if (!token || !replySecret || authservIds.length === 0) {
    throw new Error('SUPPORT_INBOUND_TOKEN, SUPPORT_REPLY_SECRET y SUPPORT_INBOUND_AUTHSERV_ID van juntos: indica los tres (respuestas de soporte por email) o ninguno');
  }
  for (const [name, value] of [['SUPPORT_INBOUND_TOKEN', token], ['SUPPORT_REPLY_SECRET', replySecret]] as const) {
    if (value.length < MIN_SECRET_LENGTH) throw new Error(`${name} es demasiado corto: usa al menos ${MIN_SECRET_LENGTH} caracteres`);
  }
  return { token, replySecret, authservIds };
}
