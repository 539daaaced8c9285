/**
 * A value kept for one signed-in user in this tab's session (sessionStorage), so a reload keeps it and
 * another user signing in on the same tab never reads it. Storage that is full, blocked or missing
 * keeps nothing: the value then lasts until the next reload only.
 */
export interface UserSessionValue {
  /** The value kept for `uid`, or null (none, another user's, or unreadable). */
  read(uid: string): string | null;
  remember(uid: string, value: string): void;
  forget(): void;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function userSessionValue(key: string): UserSessionValue {
  return {
    read(uid) {
      try {
        const kept: unknown = JSON.parse(storage()?.getItem(key) ?? 'null');
        if (typeof kept !== 'object' || kept === null) return null;
        const { user, value } = kept as Record<string, unknown>;
        return user === uid && typeof value === 'string' ? value : null;
      } catch {
        return null;
      }
    },
    remember(uid, value) {
      try {
        storage()?.setItem(key, JSON.stringify({ user: uid, value }));
      } catch {
        // Full or blocked: kept until the next reload only.
      }
    },
    forget() {
      try {
        storage()?.removeItem(key);
      } catch {
        // Nothing kept, nothing to forget.
      }
    },
  };
}
