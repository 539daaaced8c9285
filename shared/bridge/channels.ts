/** Electron IPC channel names shared by the main process and the preload. */
export const BRIDGE_INVOKE_CHANNEL = 'bridge:invoke';
export const BRIDGE_EVENT_CHANNEL = 'bridge:event';
