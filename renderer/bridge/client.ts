import { createAgentBridge, readAgentConfig } from './agent.ts';
import type { WebSocketFactory } from './agent.ts';
import { createDesktopBridge } from './desktop.ts';
import type { BridgeClient, DesktopPreload } from './types.ts';
import { noBridge, storedAgentConfig } from './detect.ts';

export type { BridgeClient, BridgeKind, DesktopPreload } from './types.ts';
export { AGENT_BRIDGE_STORAGE_KEY, noBridge } from './detect.ts';

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

export function bridgeFromWindow(): BridgeClient {
  return selectBridge({ desktop: window.desktop, storedAgentConfig: storedAgentConfig() });
}
