import { asHttpError } from '../../ui/forms.ts';

/**
 * What to tell the user when a call fails: the server's own Spanish reason for a 4xx (its first field
 * issue, else its message), our wording for anything else (a 5xx, no connection). Features do not
 * import each other, so this is the mail wizard's own copy of workspace's rule.
 */
export function errorMessage(error: unknown, fallback: string): string {
  const http = asHttpError(error);
  if (!http || http.status < 400 || http.status >= 500) return fallback;
  return http.data?.issues?.[0]?.message ?? http.data?.message ?? fallback;
}

/** The server answered 401: nobody is signed in (or the session could not be renewed). */
export function isSignedOut(error: unknown): boolean {
  return asHttpError(error)?.status === 401;
}
