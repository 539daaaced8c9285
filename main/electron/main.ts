import { app, BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAppStatusTicker } from '../bridge/app-status.ts';
import type { BridgeContext } from '../bridge/context.ts';
import { createCertificateService, nssDatabaseFrom } from '../certificates/service.ts';
import { machineIdentityReader } from '../machine/machine-id.ts';
import { readDesktopSettings, ServerUrlError, serverUrlFor } from '../settings/desktop-settings.ts';
import { registerBridge, sendBridgeEvent } from './ipc.ts';
import { safeStorageSecretBox } from './safe-storage-box.ts';
import { createMainWindow, windowControls } from './window.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

async function start() {
  if (!app.requestSingleInstanceLock()) return app.quit();
  await app.whenReady();

  const settings = await readDesktopSettings(join(app.getPath('userData'), 'settings.json'));
  let serverUrl: string;
  try {
    serverUrl = serverUrlFor(settings);
  } catch (error) {
    if (!(error instanceof ServerUrlError)) throw error;
    // Never load a page from an unsafe server: say why and stop.
    dialog.showErrorBox('AutoAsesor no puede arrancar', error.message);
    return app.quit();
  }
  const window = createMainWindow({ serverUrl, preloadPath: join(here, 'preload.cjs'), appVersion: app.getVersion() });

  const ctx: BridgeContext = {
    host: 'electron',
    appVersion: app.getVersion(),
    startedAt: new Date(),
    window: windowControls(window),
    machine: machineIdentityReader(),
    updateFeedUrl: process.env.AUTOASESOR_UPDATE_URL || null,
    fetch,
    runningRobots: () => 0,
    certificates: createCertificateService({
      platform: process.platform,
      settingsFile: join(app.getPath('userData'), 'certificates.json'),
      box: safeStorageSecretBox(join(app.getPath('userData'), 'secret.key')),
      nssDatabase: nssDatabaseFrom(process.env, app.getPath('home')),
    }),
    now: () => new Date(),
  };
  registerBridge(ctx, () => serverUrl);
  // The store read once at start (the first description of each certificate is the slow part), so the first picker opens quickly.
  void ctx.certificates.list().catch(() => undefined);
  const stopTicker = startAppStatusTicker(ctx, (status) => sendBridgeEvent(window.webContents, 'AppStatus', status));

  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    stopTicker();
    app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void start();
  });
}

void start();
