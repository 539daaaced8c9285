import { z } from 'zod/mini';

/**
 * The desktop bridge: every command the renderer may ask of the desktop app (or the headless agent),
 * with the schema of its arguments and of its result. Names are the spec's (§7 Desktop bridge commands).
 * A command is added here together with its handler in main/bridge/: the registry will not compile
 * without one, so nothing here is a promise that the desktop cannot keep.
 */
export const bridgeCommands = {
  Minimize: { args: z.strictObject({}), result: z.object({ minimized: z.boolean() }) },
  Maximize: { args: z.strictObject({}), result: z.object({ maximized: z.boolean() }) },
  CloseWindow: { args: z.strictObject({}), result: z.object({ closing: z.boolean() }) },
  GetMachineHashCode: {
    args: z.strictObject({}),
    result: z.object({ machineHashCode: z.string().check(z.regex(/^[0-9a-f]{64}$/)), machineName: z.string() }),
  },
  CheckAppUpdate: {
    args: z.strictObject({}),
    result: z.object({
      currentVersion: z.string(),
      latestVersion: z.nullable(z.string()),
      /** forceUpdate blocks the app; optionalUpdate allows 'later' (spec §4 Desktop updates). */
      update: z.enum(['none', 'optionalUpdate', 'forceUpdate']),
      checkedAt: z.string(),
    }),
  },
} as const;

export type BridgeCommand = keyof typeof bridgeCommands;
export type BridgeArgs<C extends BridgeCommand> = z.input<(typeof bridgeCommands)[C]['args']>;
export type BridgeResult<C extends BridgeCommand> = z.infer<(typeof bridgeCommands)[C]['result']>;

export const appStatusSchema = z.object({
  /** The desktop host's version (Electron app or agent). */
  hostVersion: z.string(),
  host: z.enum(['electron', 'agent']),
  machineName: z.string(),
  uptimeSeconds: z.number(),
  /** Robots running right now on this machine. */
  runningRobots: z.int().check(z.nonnegative()),
  at: z.string(),
});
export type AppStatus = z.infer<typeof appStatusSchema>;

/** Events the desktop pushes to the renderer. AppStatus is sent every second (spec §7). */
export const bridgeEvents = {
  AppStatus: appStatusSchema,
} as const;
export type BridgeEvent = keyof typeof bridgeEvents;
export type BridgeEventPayload<E extends BridgeEvent> = z.infer<(typeof bridgeEvents)[E]>;

export const APP_STATUS_INTERVAL_MS = 1000;

export function isBridgeCommand(name: unknown): name is BridgeCommand {
  return typeof name === 'string' && Object.hasOwn(bridgeCommands, name);
}
export function isBridgeEvent(name: unknown): name is BridgeEvent {
  return typeof name === 'string' && Object.hasOwn(bridgeEvents, name);
}
