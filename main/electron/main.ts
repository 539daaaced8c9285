import { app, BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAutopilot } from '../autopilot/index.ts';
import { startAppStatusTicker } from '../bridge/app-status.ts';
import type { BridgeContext } from '../bridge/context.ts';
import { createCertificateService, nssDatabaseFrom } from '../certificates/service.ts';
import { createDeviceHost, robotSettingsFromEnv } from '../device/device-host.ts';
import { createHostAltasDesktop } from '../altas/host.ts';
import { withAltasLocalProcesses } from '../altas/local-processes.ts';
import { createHostDehuDesktop } from '../dehu/host.ts';
import { createLemaClient } from '../dehu/lema/client.ts';
import { withDehuLocalProcesses } from '../dehu/local-processes.ts';
import { createFieDesktop } from '../fie/desktop.ts';
import { withLocalProcesses } from '../fie/local-processes.ts';
import { readFieSettings } from '../fie/settings.ts';
import { createHostMailDesktop } from '../mail/host.ts';
import { machineIdentityReader } from '../machine/machine-id.ts';
import { createRobotRuntime } from '../robots/runtime.ts';
import { readDesktopSettings, ServerUrlError, serverUrlFor } from '../settings/desktop-settings.ts';
import { electronShell, openInSystemBrowser } from './desktop-shell.ts';
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

  const dataFolder = app.getPath('userData');
  const box = safeStorageSecretBox(join(dataFolder, 'secret.key'));
  const certificates = createCertificateService({
    platform: process.platform,
    settingsFile: join(dataFolder, 'certificates.json'),
    box,
    nssDatabase: nssDatabaseFrom(process.env, app.getPath('home')),
  });
  // A spare robot process waits for the next run, as in the agent, but without a browser: on an advisor's
  // laptop an idle hidden Chromium all day costs more memory than the second its first run saves.
  const robots = createRobotRuntime({ certificates, chromiumPath: process.env.CHROMIUM_PATH || undefined, settingsOverrides: robotSettingsFromEnv(process.env), spare: { browser: false } });
  // Schedules with a local process (the FIE fetch and A3 sync, the altas in RED and A3, the DEHÚ update) run here instead of a robot.
  const runtime = withDehuLocalProcesses(withAltasLocalProcesses(withLocalProcesses(robots, { fie: () => fie }), { altas: () => altas }), { dehu: () => dehu });
  // Run folders go where the user keeps documents, so OpenFolder shows them somewhere familiar.
  const { link, runner } = createDeviceHost({
    dataFolder,
    box,
    fetch,
    runtime,
    outputRoot: join(app.getPath('documents'), 'AutoAsesor'),
    // Robots may still be ending after the window closed (quitting): their events then go nowhere.
    emit: (event) => {
      if (!window.isDestroyed()) sendBridgeEvent(window.webContents, 'RobotRun', event);
    },
  });

  // An installed app never falls back to the FIER stand-in (FIER_URL or the settings name the real one), nor takes the RED stand-in's switches.
  const fieEnv = app.isPackaged ? { ...process.env, NODE_ENV: 'production' } : process.env;
  const fie = createFieDesktop({ link, certificates, settings: () => readFieSettings(dataFolder, fieEnv), fetch, now: () => new Date() });
  const altas = createHostAltasDesktop({ link, certificates, dataFolder, env: fieEnv, fetch });
  const dehu = createHostDehuDesktop({ link, certificates, dataFolder, env: fieEnv, fetch, lemaClient: createLemaClient });

  // Its loop runs while the window's panel is open (SetAutopilotPanelOpen); the task cache lives in userData.
  const autopilot = createAutopilot({ dataFolder, link, host: 'electron', altas, dehu, log: (message) => console.error(message) });
  autopilot.onChange((snapshot) => {
    if (!window.isDestroyed()) sendBridgeEvent(window.webContents, 'Autopilot', snapshot);
  });

  const ctx: BridgeContext = {
    host: 'electron',
    appVersion: app.getVersion(),
    startedAt: new Date(),
    window: windowControls(window),
    machine: machineIdentityReader(),
    updateFeedUrl: process.env.AUTOASESOR_UPDATE_URL || null,
    fetch,
    runningRobots: () => runner.running(),
    certificates,
    device: link,
    robots: runner,
    shell: electronShell(window),
    autopilot,
    fie,
    altas,
    dehu,
    mail: createHostMailDesktop({ env: process.env, openUrl: openInSystemBrowser }),
    now: () => new Date(),
  };
  registerBridge(ctx, () => serverUrl);
  // The store read once at start (the first description of each certificate is the slow part), so the first picker opens quickly.
  void ctx.certificates.list().catch(() => undefined);
  const stopTicker = startAppStatusTicker(ctx, (status) => sendBridgeEvent(window.webContents, 'AppStatus', status));
  // While linked, the app takes this machine's remote launches too (as the agent does).
  await runner.start();
  // After the runner: a slot the autopilot launches is run by this machine's run loop. A cache that
  // cannot open leaves the app working otherwise; the panel then shows the failure.
  await autopilot.start().catch((error: unknown) => console.error(`El piloto automático no ha podido arrancar: ${error instanceof Error ? error.message : String(error)}`));

  // Quitting: the autopilot stops first (nothing more is launched, its cache is closed); robots still
  // running are stopped as 'device' and their runs closed on the server before the app goes.
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    void autopilot
      .stop()
      .catch(() => undefined)
      .then(() => (runner.running() > 0 ? runner.shutdown(20_000) : undefined))
      .finally(() => app.quit());
  });

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
