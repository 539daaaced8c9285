/**
 * The headless agent: the desktop app's bridge without a window, for an office PC that runs robots
 * unattended. Once linked (LinkDevice) it takes the runs queued for its machine whenever it runs.
 * Its autopilot runs this machine's scheduled robots always, window or not (the desktop app only while
 * its panel is open). With AGENT_PORT set (development, e2e) it also serves the bridge on a loopback
 * WebSocket so a browser renderer can use it as if it were embedded.
 *
 *   AGENT_PORT=0 npm run agent                 # random free port; prints {"agentBridge":{url,token}} on stdout
 *   npm run agent -- --install-service         # start it with the session (systemd --user, logon task, LaunchAgent)
 *   npm run agent -- --uninstall-service
 *   AUTOPILOT_RETRY_MS=5000 npm run agent     # wait before launching a slot again after its run was aborted (299)
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import { autopilotClockFromEnv } from './autopilot/clock-offset.ts';
import { createAutopilot } from './autopilot/index.ts';
import type { AutopilotService } from './autopilot/types.ts';
import { startAppStatusTicker } from './bridge/app-status.ts';
import type { BridgeContext } from './bridge/context.ts';
import { keyFileSecretBox } from './certificates/secret-box.ts';
import { createCertificateService, nssDatabaseFrom } from './certificates/service.ts';
import { agentShell } from './device/agent-shell.ts';
import { createDeviceHost, robotSettingsFromEnv } from './device/device-host.ts';
import { createHostAltasDesktop } from './altas/host.ts';
import { withAltasLocalProcesses } from './altas/local-processes.ts';
import { createHostDehuDesktop } from './dehu/host.ts';
import { createLemaClient } from './dehu/lema/client.ts';
import { withDehuLocalProcesses } from './dehu/local-processes.ts';
import { createFieDesktop } from './fie/desktop.ts';
import { withLocalProcesses } from './fie/local-processes.ts';
import { readFieSettings } from './fie/settings.ts';
import { createHostMailDesktop } from './mail/host.ts';
import { agentUrlOpener } from './mail/opener.ts';
import type { DeviceRunner } from './device/run-loop.ts';
import { agentDataFolder, applyPlan, currentSetup, installPlan, runCommand, uninstallPlan } from './install-service.ts';
import { machineIdentityReader } from './machine/machine-id.ts';
import { createRobotRuntime } from './robots/runtime.ts';
import { startAgentSocket, type AgentSocket } from './transports/agent-socket.ts';

const require = createRequire(import.meta.url);
const { version } = require('../package.json') as { version: string };

/** How long a SIGTERM waits for the robots to stop and their runs to be closed on the server. */
const SHUTDOWN_GRACE_MS = 20_000;

/**
 * AUTOPILOT_RETRY_MS: how long the autopilot waits before launching a slot again after its run was
 * aborted (status 299); unset keeps the autopilot's own default. Throws a Spanish Error naming the
 * variable when it is not a whole number of milliseconds.
 */
export function autopilotRetryFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.AUTOPILOT_RETRY_MS?.trim();
  if (!raw) return undefined;
  const milliseconds = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(milliseconds) || milliseconds < 1) {
    throw new Error(`AUTOPILOT_RETRY_MS debe ser un número entero de milisegundos mayor que 0 (por ejemplo 5000), no «${raw.slice(0, 40)}».`);
  }
  return milliseconds;
}

/** Said when the autopilot cannot start (its task cache cannot open): the agent goes on with remote launches only. */
export function autopilotFailedMessage(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `El piloto automático no ha podido arrancar (${reason}): este equipo no lanzará sus robots programados hasta que se resuelva.`;
}

/**
 * The agent's bridge context, its robots and its autopilot. Its own files live in the data folder: the .p12 folder
 * setting and passwords and the device link (sealed under a 0600 key), and the runs' output folders.
 */
export function agentContext(
  env: NodeJS.ProcessEnv = process.env,
  emit: (event: RobotRunEvent) => void = () => undefined,
): { ctx: BridgeContext; runner: DeviceRunner; autopilot: AutopilotService } {
  const retryAfterAbortMs = autopilotRetryFromEnv(env);
  const dataFolder = agentDataFolder(env, homedir());
  const box = keyFileSecretBox(join(dataFolder, 'secret.key'));
  const certificates = createCertificateService({
    platform: process.platform,
    settingsFile: join(dataFolder, 'certificates.json'),
    box,
    nssDatabase: nssDatabaseFrom(env, homedir()),
  });
  // A spare robot process with its browser waits for the next run (launch -> first log line goal, ≤ 500 ms).
  const robots = createRobotRuntime({ certificates, chromiumPath: env.CHROMIUM_PATH || undefined, settingsOverrides: robotSettingsFromEnv(env), spare: { browser: true } });
  // Schedules with a local process (the FIE fetch and A3 sync, the altas in RED and A3, the DEHÚ update) run here instead of a robot.
  const runtime = withDehuLocalProcesses(withAltasLocalProcesses(withLocalProcesses(robots, { fie: () => fie }), { altas: () => altas }), { dehu: () => dehu });
  const { link, runner } = createDeviceHost({ dataFolder, box, fetch, runtime, outputRoot: join(dataFolder, 'resultados'), emit });
  const fie = createFieDesktop({ link, certificates, settings: () => readFieSettings(dataFolder, env), fetch, now: () => new Date() });
  const altas = createHostAltasDesktop({ link, certificates, dataFolder, env, fetch });
  const dehu = createHostDehuDesktop({ link, certificates, dataFolder, env, fetch, lemaClient: createLemaClient });
  // Its task cache lives in the data folder; the slots it launches come back through the runner's long poll.
  const autopilot = createAutopilot({ dataFolder, link, host: 'agent', retryAfterAbortMs, altas, dehu, now: autopilotClockFromEnv(env), log: (message) => console.error(message) });
  const ctx: BridgeContext = {
    host: 'agent',
    appVersion: version,
    startedAt: new Date(),
    window: null,
    machine: machineIdentityReader(),
    updateFeedUrl: env.AUTOASESOR_UPDATE_URL || null,
    fetch,
    runningRobots: () => runner.running(),
    certificates,
    device: link,
    robots: runner,
    shell: agentShell({ platform: process.platform, env }),
    autopilot,
    fie,
    altas,
    dehu,
    // No browser here: the authorization address goes to AGENT_URL_OPENER_FILE (e2e) or to stderr.
    mail: createHostMailDesktop({ env, openUrl: agentUrlOpener(env) }),
    now: () => new Date(),
  };
  return { ctx, runner, autopilot };
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--install-service') || argv.includes('--uninstall-service')) {
    const setup = currentSetup(process.env, homedir(), (id) => require.resolve(id));
    const plan = argv.includes('--install-service') ? installPlan(setup) : uninstallPlan(setup);
    process.exit((await applyPlan(plan, runCommand, (line) => console.log(line))) ? 0 : 1);
  }

  let socket: AgentSocket | null = null;
  const { ctx, runner, autopilot } = agentContext(process.env, (event) => socket?.broadcast('RobotRun', event));
  autopilot.onChange((snapshot) => socket?.broadcast('Autopilot', snapshot));
  const identity = await ctx.machine();
  console.error(`Agente AutoAsesor ${version} en ${identity.machineName} (${identity.machineHashCode.slice(0, 12)})`);
  // Read the certificate store once at start: describing a certificate the first time costs ~1.5 ms each
  // (200 in a store: ~0.3 s); the store keeps those readings, so the user's first list is quick.
  void ctx.certificates.list().catch(() => undefined);
  await runner.start();
  // After the runner: a slot the autopilot launches is run by this machine's run loop. A cache that
  // cannot open leaves the agent taking remote launches, and says why.
  await autopilot.start().catch((error: unknown) => console.error(autopilotFailedMessage(error)));
  const device = await ctx.device.status();
  console.error(
    device.linked
      ? `Conectado a ${device.serverUrl} como «${device.machine?.name}»: recibe los robots de este dispositivo.`
      : `Sin conectar a ninguna cuenta${device.problem ? ` (${device.problem})` : ''}: conéctalo desde la aplicación para recibir robots.`,
  );

  let stopTicker: () => void;
  // Nothing else may hold the process open while it is not linked: a service waits here to be linked or stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const portSetting = process.env.AGENT_PORT;
  if (portSetting === undefined) {
    console.error('Sin AGENT_PORT: el agente no expone el puente a ninguna ventana.');
    stopTicker = startAppStatusTicker(ctx, () => undefined);
  } else {
    const port = Number(portSetting);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      console.error(`AGENT_PORT no es un puerto válido: ${portSetting}`);
      process.exit(2);
    }
    const token = process.env.AGENT_TOKEN || randomBytes(24).toString('hex');
    const allowedOrigins = (process.env.AGENT_ALLOWED_ORIGINS ?? '').split(',').filter(Boolean);
    const open = await startAgentSocket(ctx, { port, token, allowedOrigins });
    socket = open;
    stopTicker = startAppStatusTicker(ctx, (status) => open.broadcast('AppStatus', status));
    // One JSON line on stdout so scripts (and the e2e setup) can hand the connection to a renderer.
    console.log(JSON.stringify({ agentBridge: { url: open.url, token } }));
  }

  // A stop (systemd, Ctrl+C) ends the robots as 'device' and closes their runs on the server before exiting.
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stopTicker();
    clearInterval(keepAlive);
    // The autopilot first, so it launches nothing more while the robots stop.
    void autopilot
      .stop()
      .catch((error: unknown) => console.error(`El piloto automático no se ha detenido limpiamente: ${error instanceof Error ? error.message : String(error)}`))
      .then(() => {
        if (runner.running() > 0) console.error('Deteniendo los robots en marcha y cerrando sus ejecuciones…');
        return runner.shutdown(SHUTDOWN_GRACE_MS);
      })
      .then(() => socket?.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
