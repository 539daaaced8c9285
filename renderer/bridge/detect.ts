import type { BridgeClient } from './types.ts';

/*
 * What the app needs before it knows there is a bridge at all: the plain web app has none, and it
 * should not download the bridge clients and the contract's schemas (client.ts) to find that out.
 */

/** Where the loopback agent's settings are kept in this browser (dev and e2e). */
export const AGENT_BRIDGE_STORAGE_KEY = 'autoasesor.agentBridge';

/** Web mode: nothing to call; every command answers UNAVAILABLE and no event ever fires. */
export const noBridge: BridgeClient = {
  kind: 'none',
  available: false,
  invoke: async () => ({ ok: false, error: { code: 'UNAVAILABLE', message: 'Esta acción solo está disponible en la aplicación de escritorio' } }),
  on: () => () => undefined,
};

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** True when a bridge may be there: the desktop preload, or agent settings stored (client.ts checks them). */
export function mayHaveBridge(): boolean {
  return window.desktop !== undefined || readStorage(AGENT_BRIDGE_STORAGE_KEY) !== null;
}

/** The agent settings as stored, for client.ts. */
export function storedAgentConfig(): string | null {
  return readStorage(AGENT_BRIDGE_STORAGE_KEY);
}
