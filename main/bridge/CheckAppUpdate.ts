import { z } from 'zod';
import type { Handler } from './context.ts';
import { BridgeFailure } from './context.ts';
import { compareVersions } from './versions.ts';

const updateFeedSchema = z.object({
  latest: z.string().regex(/^\d+\.\d+\.\d+/),
  /** Versions below this one must update before the app can be used. */
  minimum: z.string().regex(/^\d+\.\d+\.\d+/).optional(),
});

const FEED_TIMEOUT_MS = 5000;

export const CheckAppUpdate: Handler<'CheckAppUpdate'> = async (_args, ctx) => {
  const checkedAt = ctx.now().toISOString();
  if (!ctx.updateFeedUrl) {
    return { currentVersion: ctx.appVersion, latestVersion: null, update: 'none', checkedAt };
  }
  let body: unknown;
  try {
    const response = await ctx.fetch(ctx.updateFeedUrl, { signal: AbortSignal.timeout(FEED_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch {
    throw new BridgeFailure('UNAVAILABLE', 'No se ha podido comprobar si hay actualizaciones. Revisa tu conexión.');
  }
  const feed = updateFeedSchema.safeParse(body);
  if (!feed.success) {
    throw new BridgeFailure('FAILED', 'El servidor de actualizaciones ha respondido con datos no válidos.');
  }
  const { latest, minimum } = feed.data;
  const update =
    minimum && compareVersions(ctx.appVersion, minimum) < 0
      ? 'forceUpdate'
      : compareVersions(ctx.appVersion, latest) < 0
        ? 'optionalUpdate'
        : 'none';
  return { currentVersion: ctx.appVersion, latestVersion: latest, update, checkedAt };
};
