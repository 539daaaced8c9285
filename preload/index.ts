import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { bridgeCommands, bridgeEvents } from '#shared/bridge/contract.ts';
import { BRIDGE_EVENT_CHANNEL, BRIDGE_INVOKE_CHANNEL } from '#shared/bridge/channels.ts';

const commandNames = new Set(Object.keys(bridgeCommands));
const eventNames = new Set(Object.keys(bridgeEvents));

/**
 * window.desktop: the renderer's only door to the desktop. Two functions, allowlisted by the contract's
 * names; arguments are parsed again in the main process, so this is a filter, not the check.
 */
const desktop = {
  invoke(command: string, args: unknown = {}): Promise<unknown> {
    if (!commandNames.has(command)) {
      return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_COMMAND', message: `Orden desconocida: ${command}` } });
    }
    return ipcRenderer.invoke(BRIDGE_INVOKE_CHANNEL, command, args);
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    if (!eventNames.has(event)) return () => undefined;
    const handler = (_: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(BRIDGE_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(BRIDGE_EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('desktop', desktop);
