/** Spec §2: the panel's open state survives a reload (local storage). */
export const PANEL_OPEN_STORAGE_KEY = 'autoasesor.autopilotOpen';

export function readPanelOpen(storage: Pick<Storage, 'getItem'>): boolean {
  try {
    return storage.getItem(PANEL_OPEN_STORAGE_KEY) === 'true';
  } catch {
    return false; // storage blocked: start closed
  }
}

export function writePanelOpen(storage: Pick<Storage, 'setItem'>, open: boolean): void {
  try {
    storage.setItem(PANEL_OPEN_STORAGE_KEY, String(open));
  } catch {
    // Storage blocked or full: the panel still works, it just will not reopen by itself.
  }
}
