import { z } from 'zod/mini';

export const DEFAULT_SUPPORT_EMAIL = 'soporte@autoasesor.es';

export interface SupportConfig {
  email: string;
}

const supportEmailSchema = z.email();

/**
 * SUPPORT_EMAIL, or the default address when unset or blank. A value that is not an address stops
 * the server at start-up, rather than sending users to write to nowhere.
 */
export function supportConfigFromEnv(env: Record<string, string | undefined>): SupportConfig {
  const raw = env.SUPPORT_EMAIL?.trim();
  if (!raw) return { email: DEFAULT_SUPPORT_EMAIL };
  const parsed = supportEmailSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`SUPPORT_EMAIL no es una dirección de correo válida: "${raw}"`);
  return { email: parsed.data };
}
