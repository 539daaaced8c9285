import type { AppStatus } from '#shared/bridge/contract.ts';
import { APP_STATUS_INTERVAL_MS } from '#shared/bridge/contract.ts';
import type { BridgeContext } from './context.ts';

export async function readAppStatus(ctx: BridgeContext): Promise<AppStatus> {
  const now = ctx.now();
  const [{ machineName }, device] = await Promise.all([
    ctx.machine().catch(() => ({ machineName: 'Equipo sin identificar' })),
    // The link is read from memory after the first call: cheap enough for a status sent every second.
    ctx.device.status().catch(() => ({ linked: false })),
  ]);
  return {
    hostVersion: ctx.appVersion,
    host: ctx.host,
    machineName,
    uptimeSeconds: Math.max(0, Math.round((now.getTime() - ctx.startedAt.getTime()) / 1000)),
    runningRobots: ctx.runningRobots(),
    deviceLinked: device.linked,
    at: now.toISOString(),
  };
}

/** Emits AppStatus every second (spec §7: the renderer polls the desktop's status each second). */
export function startAppStatusTicker(ctx: BridgeContext, emit: (status: AppStatus) => void, intervalMs = APP_STATUS_INTERVAL_MS): () => void {
  const timer = setInterval(() => {
    readAppStatus(ctx).then(emit, () => undefined);
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
