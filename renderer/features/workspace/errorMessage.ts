import { asHttpError } from '../../ui/forms.ts';

/**
 * What to tell the user when a call fails: the server's own Spanish reason for a 4xx (its first field
 * issue, else its message), our wording for anything else (a 5xx, no connection).
 */
export function errorMessage(error: unknown, fallback: string): string {
  const http = asHttpError(error);
  if (!http || http.status < 400 || http.status >= 500) return fallback;
  return http.data?.issues?.[0]?.message ?? http.data?.message ?? fallback;
}
