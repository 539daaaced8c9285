import { AGENT_BRIDGE_STORAGE_KEY, createAgentBridge, readAgentConfig } from './agent.ts';
import type { WebSocketFactory } from './agent.ts';
import { createDesktopBridge } from './desktop.ts';
import type { BridgeClient, DesktopPreload } from './types.ts';
import { failure } from './validate.ts';

export type { BridgeClient, BridgeKind, DesktopPreload } from './types.ts';
export { AGENT_BRIDGE_STORAGE_KEY } from './agent.ts';

/** Web mode: nothing to call; every command answers UNAVAILABLE and no event ever fires. */
export const noBridge: BridgeClient = {
  kind: 'none',
  available: false,
  invoke: async () => failure('UNAVAILABLE', 'Esta acción solo está disponible en la aplicación de escritorio'),
  on: () => () => undefined,
};

export interface BridgeEnvironment {
  desktop?: DesktopPreload;
  storedAgentConfig: string | null;
  openSocket?: WebSocketFactory;
}

/** window.desktop when the preload is there, else the loopback agent when configured, else none. */
export function selectBridge(environment: BridgeEnvironment): BridgeClient {
  if (environment.desktop) return createDesktopBridge(environment.desktop);
  const agent = readAgentConfig(environment.storedAgentConfig);
  if (agent) return createAgentBridge(agent, environment.openSocket);
  return noBridge;
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function bridgeFromWindow(): BridgeClient {
  return selectBridge({ desktop: window.desktop, storedAgentConfig: readStorage(AGENT_BRIDGE_STORAGE_KEY) });
}
