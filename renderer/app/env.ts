import { EMBEDDED_USER_AGENT_MARKER } from '#shared/bridge/user-agent.ts';
import type { ClientApp } from '#shared/api/headers.ts';

/** Embedded mode is decided by the user agent the desktop window sets (spec §6). */
export function isEmbeddedUserAgent(userAgent: string): boolean {
  return userAgent.includes(EMBEDDED_USER_AGENT_MARKER);
}

export const embedded: boolean = typeof navigator !== 'undefined' && isEmbeddedUserAgent(navigator.userAgent);

export const clientApp: ClientApp = embedded ? 'desktop' : 'web';

/** Injected by vite.config.ts from package.json; tests and odd builds fall back to a dev marker. */
export const appVersion: string = import.meta.env.VITE_APP_VERSION ?? '0.0.0-dev';
