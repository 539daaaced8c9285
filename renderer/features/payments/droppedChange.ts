/**
 * The change of plan a cancel dropped (Stripe releases the schedule that held it), remembered for this
 * tab's session so that, after a reload, the page can still say it must be chosen again on resuming.
 */
const KEY = 'autoasesor.droppedPlanChange';

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The plan's name, when this user's cancel dropped a change in this session. */
export function readDroppedChange(uid: string): string | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { user, plan } = value as Record<string, unknown>;
    return user === uid && typeof plan === 'string' ? plan : null;
  } catch {
    return null;
  }
}

export function rememberDroppedChange(uid: string, plan: string): string {
  try {
    storage()?.setItem(KEY, JSON.stringify({ user: uid, plan }));
  } catch {
    // Storage full or blocked: the page says it now, not after a reload.
  }
  return plan;
}

export function forgetDroppedChange(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}
