/**
 * The credit banner's state a user hid ('warning', 'extra', 'exceeded'), kept for the tab's session so a
 * reload does not bring it back; the Auth route forgets it (RouteGate), so the next sign-in shows it.
 * ui.creditBannerHidden holds the same while the app runs.
 */
const KEY = 'autoasesor.creditBannerHidden';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function readHiddenCreditBanner(uid: string): string | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { user, state } = value as Record<string, unknown>;
    return user === uid && typeof state === 'string' ? state : null;
  } catch {
    return null;
  }
}

export function rememberHiddenCreditBanner(uid: string, state: string): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ user: uid, state }));
  } catch {
    // Storage full or blocked: hidden until the next reload only.
  }
}

export function forgetHiddenCreditBanner(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}
