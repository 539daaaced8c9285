import { ipcMain, type WebContents } from 'electron';
import type { BridgeEvent, BridgeEventPayload } from '#shared/bridge/contract.ts';
import { BRIDGE_EVENT_CHANNEL, BRIDGE_INVOKE_CHANNEL } from '#shared/bridge/channels.ts';
import type { BridgeContext } from '../bridge/context.ts';
import { dispatch } from '../bridge/registry.ts';
import { isTrustedRendererUrl } from '../bridge/trusted-origin.ts';

/** The only place that touches ipcMain: one channel for every command, checked and parsed by the registry. */
export function registerBridge(ctx: BridgeContext, serverUrl: () => string): () => void {
  ipcMain.handle(BRIDGE_INVOKE_CHANNEL, async (event, command: unknown, args: unknown) => {
    if (!isTrustedRendererUrl(event.senderFrame?.url, serverUrl())) {
      return { ok: false, error: { code: 'FORBIDDEN', message: 'Esta página no puede usar la aplicación de escritorio.' } };
    }
    return dispatch(command, args, ctx);
  });
  return () => ipcMain.removeHandler(BRIDGE_INVOKE_CHANNEL);
}

export function sendBridgeEvent<E extends BridgeEvent>(contents: WebContents, event: E, payload: BridgeEventPayload<E>): void {
  if (!contents.isDestroyed()) contents.send(BRIDGE_EVENT_CHANNEL, event, payload);
}
