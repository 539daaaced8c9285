/** Where 'Más tarde' on the optional-update banner is remembered, with the version it was said to. */
export const UPDATE_DISMISSAL_KEY = 'autoasesor.updateDismissed';
export const UPDATE_SNOOZE_MS = 24 * 60 * 60 * 1000;

interface Dismissal {
  version: string;
  until: number;
}

function readDismissal(storage: Storage): Dismissal | null {
  try {
    const value: unknown = JSON.parse(storage.getItem(UPDATE_DISMISSAL_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { version, until } = value as Record<string, unknown>;
    return typeof version === 'string' && typeof until === 'number' ? { version, until } : null;
  } catch {
    return null;
  }
}

/** Snoozed only for the version the user said 'later' to: a newer one shows the banner again. */
export function isUpdateSnoozed(storage: Storage, version: string, now: number): boolean {
  const dismissal = readDismissal(storage);
  return dismissal !== null && dismissal.version === version && now < dismissal.until;
}

export function snoozeUpdate(storage: Storage, version: string, now: number): void {
  const dismissal: Dismissal = { version, until: now + UPDATE_SNOOZE_MS };
  try {
    storage.setItem(UPDATE_DISMISSAL_KEY, JSON.stringify(dismissal));
  } catch {
    // Storage full or blocked: the banner simply comes back on the next check.
  }
}
