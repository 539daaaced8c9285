import { dialog, shell, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { DesktopShell } from '../bridge/context.ts';
import { BridgeFailure } from '../bridge/context.ts';

/**
 * The window's shell: folders open in the system's file manager (OpenFolder has already checked that
 * they are run folders), files and folders are chosen with the native dialog, modal to the window.
 */
export function electronShell(window: BrowserWindow): DesktopShell {
  return {
    async openFolder(folder) {
      // openPath answers an error text instead of throwing; empty means it opened.
      const problem = await shell.openPath(folder);
      if (problem) throw new BridgeFailure('FAILED', `No se ha podido abrir la carpeta ${folder}: ${problem}`);
    },
    async chooseFiles({ multiple, directory, title }) {
      const properties: OpenDialogOptions['properties'] = [directory ? 'openDirectory' : 'openFile'];
      if (multiple) properties.push('multiSelections');
      const answer = await dialog.showOpenDialog(window, { properties, ...(title ? { title } : {}) });
      return answer.canceled ? [] : answer.filePaths;
    },
  };
}

/**
 * Opens a provider's authorization page in the user's own browser (RFC 8252 §8.12: never an embedded
 * view). Only web addresses: openExternal would also launch file:, smb: or an app's own scheme.
 */
export async function openInSystemBrowser(url: string): Promise<void> {
  const protocol = new URL(url).protocol;
  if (protocol !== 'https:' && protocol !== 'http:') throw new BridgeFailure('FAILED', 'Solo se abren direcciones web en el navegador.');
  await shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: reviewed, http(s) only, and built by main/mail/authorize.ts from the configured provider address
}
