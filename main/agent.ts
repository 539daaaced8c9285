/**
 * The headless agent: the desktop app's bridge without a window, for an office PC that runs robots
 * unattended. With AGENT_PORT set (development, e2e) it also serves the bridge on a loopback
 * WebSocket so a browser renderer can use it as if it were embedded.
 *
 *   AGENT_PORT=0 npm run agent     # random free port; prints {"agentBridge":{url,token}} on stdout
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startAppStatusTicker } from './bridge/app-status.ts';
import type { BridgeContext } from './bridge/context.ts';
import { keyFileSecretBox } from './certificates/secret-box.ts';
import { createCertificateService, nssDatabaseFrom } from './certificates/service.ts';
import { machineIdentityReader } from './machine/machine-id.ts';
import { startAgentSocket } from './transports/agent-socket.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

export function agentContext(env: NodeJS.ProcessEnv = process.env): BridgeContext {
  // The agent's own files: the .p12 folder it reads, and those files' passwords sealed under a 0600 key.
  const dataFolder = env.AUTOASESOR_AGENT_DATA || join(homedir(), '.autoasesor-agent');
  return {
    host: 'agent',
    appVersion: version,
    startedAt: new Date(),
    window: null,
    machine: machineIdentityReader(),
    updateFeedUrl: env.AUTOASESOR_UPDATE_URL || null,
    fetch,
    runningRobots: () => 0,
    certificates: createCertificateService({
      platform: process.platform,
      settingsFile: join(dataFolder, 'certificates.json'),
      box: keyFileSecretBox(join(dataFolder, 'secret.key')),
      nssDatabase: nssDatabaseFrom(env, homedir()),
    }),
    now: () => new Date(),
  };
}

async function main() {
  const ctx = agentContext();
  const identity = await ctx.machine();
  console.error(`Agente AutoAsesor ${version} en ${identity.machineName} (${identity.machineHashCode.slice(0, 12)})`);
  // Read the certificate store once at start: describing a certificate the first time costs ~1.5 ms each
  // (200 in a store: ~0.3 s); the store keeps those readings, so the user's first list is quick.
  void ctx.certificates.list().catch(() => undefined);

  const portSetting = process.env.AGENT_PORT;
  if (portSetting === undefined) {
    console.error('Sin AGENT_PORT: el agente no expone el puente a ninguna ventana.');
    startAppStatusTicker(ctx, () => undefined);
    return;
  }
  const port = Number(portSetting);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`AGENT_PORT no es un puerto válido: ${portSetting}`);
    process.exit(2);
  }
  const token = process.env.AGENT_TOKEN || randomBytes(24).toString('hex');
  const allowedOrigins = (process.env.AGENT_ALLOWED_ORIGINS ?? '').split(',').filter(Boolean);
  const socket = await startAgentSocket(ctx, { port, token, allowedOrigins });
  const stopTicker = startAppStatusTicker(ctx, (status) => socket.broadcast('AppStatus', status));
  // One JSON line on stdout so scripts (and the e2e setup) can hand the connection to a renderer.
  console.log(JSON.stringify({ agentBridge: { url: socket.url, token } }));

  const shutdown = () => {
    stopTicker();
    void socket.close().then(() => process.exit(0));
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
