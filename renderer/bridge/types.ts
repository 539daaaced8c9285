import type { BridgeArgs, BridgeCommand, BridgeEvent, BridgeEventPayload, BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';

/** What the preload exposes as window.desktop: untyped at the boundary, validated by the client. */
export interface DesktopPreload {
  invoke(command: string, args: unknown): Promise<unknown>;
  on(event: string, callback: (payload: unknown) => void): () => void;
}

export type BridgeKind = 'desktop' | 'agent' | 'none';

export interface BridgeClient {
  kind: BridgeKind;
  available: boolean;
  invoke<C extends BridgeCommand>(command: C, args: BridgeArgs<C>): Promise<BridgeEnvelope<BridgeResult<C>>>;
  on<E extends BridgeEvent>(event: E, callback: (payload: BridgeEventPayload<E>) => void): () => void;
}

declare global {
  interface Window {
    desktop?: DesktopPreload;
  }
}
