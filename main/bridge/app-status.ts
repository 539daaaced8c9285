import type { AppStatus } from '#shared/bridge/contract.ts';
import { APP_STATUS_INTERVAL_MS } from '#shared/bridge/contract.ts';
import type { BridgeContext } from './context.ts';

export async function readAppStatus(ctx: BridgeContext): Promise<AppStatus> {
  const now = ctx.now();
  const { machineName } = await ctx.machine().catch(() => ({ machineName: 'Equipo sin identificar' }));
  return {
    hostVersion: ctx.appVersion,
    host: ctx.host,
    machineName,
    uptimeSeconds: Math.max(0, Math.round((now.getTime() - ctx.startedAt.getTime()) / 1000)),
    runningRobots: ctx.runningRobots(),
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
