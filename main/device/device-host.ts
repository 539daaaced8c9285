import { join } from 'node:path';
import { z } from 'zod';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import type { SecretBox } from '../certificates/secret-box.ts';
import type { RobotRuntime } from '../robots/types.ts';
import { createDeviceLink, type DeviceLinkService } from './connection.ts';
import { createDeviceRunner, type DeviceRunner } from './run-loop.ts';
import { fileTokenStore } from './token-store.ts';

export interface DeviceHostOptions {
  /** The host's own folder (agent: AUTOASESOR_AGENT_DATA; Electron: userData). The link is kept in it. */
  dataFolder: string;
  /** How the host seals secrets: the agent's 0600 key file, Electron's safeStorage. */
  box: SecretBox;
  fetch: typeof fetch;
  runtime: RobotRuntime;
  outputRoot: string;
  emit: (event: RobotRunEvent) => void;
  log?: (message: string) => void;
}

/** The link and the runner as both hosts (agent and Electron) use them; the bridge context takes both. */
export function createDeviceHost(options: DeviceHostOptions): { link: DeviceLinkService; runner: DeviceRunner } {
  const link = createDeviceLink({ store: fileTokenStore(join(options.dataFolder, 'device.json'), options.box), fetch: options.fetch });
  const runner = createDeviceRunner({ link, runtime: options.runtime, outputRoot: options.outputRoot, emit: options.emit, log: options.log });
  return { link, runner };
}

const robotSettingsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * AUTOASESOR_ROBOT_SETTINGS: per-flow overrides of a desktop flow's settings, as JSON, e.g.
 * `{"descargar-justificantes":{"baseUrl":"https://127.0.0.1:8443","ignoreHTTPSErrors":true}}` (stand-ins, tests).
 * Throws a Spanish Error naming the variable when it is not such an object.
 */
export function robotSettingsFromEnv(env: NodeJS.ProcessEnv): Record<string, Record<string, unknown>> {
  const raw = env.AUTOASESOR_ROBOT_SETTINGS?.trim();
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('AUTOASESOR_ROBOT_SETTINGS no es JSON válido: debe ser un objeto { "<robot>": { "<ajuste>": valor } }.');
  }
  const settings = robotSettingsSchema.safeParse(parsed);
  if (!settings.success) throw new Error('AUTOASESOR_ROBOT_SETTINGS debe ser un objeto { "<robot>": { "<ajuste>": valor } }.');
  return settings.data;
}
