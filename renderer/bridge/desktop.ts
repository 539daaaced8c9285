import type { BridgeClient, DesktopPreload } from './types.ts';
import { failure, toCommandEnvelope, toEventPayload } from './validate.ts';

/** The Electron window's bridge, through the preload's window.desktop. */
export function createDesktopBridge(desktop: DesktopPreload): BridgeClient {
  return {
    kind: 'desktop',
    available: true,
    async invoke(command, args) {
      try {
        return toCommandEnvelope(command, await desktop.invoke(command, args));
      } catch {
        return failure('UNAVAILABLE', 'No se ha podido contactar con la aplicación de escritorio');
      }
    },
    on(event, callback) {
      return desktop.on(event, (raw) => {
        const payload = toEventPayload(event, raw);
        if (payload !== undefined) callback(payload);
      });
    },
  };
}
