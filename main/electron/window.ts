import { BrowserWindow, session, shell } from 'electron';
import { EMBEDDED_USER_AGENT_MARKER } from '#shared/bridge/user-agent.ts';
import type { WindowControls } from '../bridge/context.ts';
import { contentSecurityPolicy } from './csp.ts';
import { installPermissionHandlers, isAllowedExternalUrl } from './security.ts';

export interface MainWindowOptions {
  serverUrl: string;
  preloadPath: string;
  appVersion: string;
}

/**
 * The app's single window. It shows the renderer served by the chosen server, isolated from Node:
 * context isolation and the sandbox on, no Node integration, a CSP on every response, no navigation
 * or pop-ups to other origins (allowlisted links open in the user's browser), no permissions granted.
 */
export function createMainWindow({ serverUrl, preloadPath, appVersion }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 1024,
    minHeight: 680,
    frame: false, // the renderer draws its own top bar with Minimizar / Maximizar / Cerrar
    show: false,
    backgroundColor: '#f3f6fb',
    webPreferences: {
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK: reviewed, it only exposes the typed bridge via contextBridge (preload/index.ts)
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // A middle click would open a link in a new Electron window, outside setWindowOpenHandler's rules.
      disableBlinkFeatures: 'Auxclick',
    },
  });

  const serverOrigin = new URL(serverUrl).origin;
  window.webContents.setUserAgent(`${window.webContents.getUserAgent()} ${EMBEDDED_USER_AGENT_MARKER}/${appVersion}`);
  installPermissionHandlers(session.defaultSession, serverOrigin);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy(serverOrigin)] } });
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!URL.canParse(url) || new URL(url).origin !== serverOrigin) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url, serverOrigin)) void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: allowlisted (security.ts)
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(serverUrl);
  return window;
}

export function windowControls(window: BrowserWindow): WindowControls {
  return {
    minimize: () => window.minimize(),
    toggleMaximize: () => {
      if (window.isMaximized()) window.unmaximize();
      else window.maximize();
      return window.isMaximized();
    },
    close: () => window.close(),
  };
}
