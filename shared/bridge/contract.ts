import { z } from 'zod/mini';
import { certificateProblemSchema, localCertificateSchema } from '../certificates/certificate.ts';

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
  /**
   * The current user's personal certificates with a private key that can authenticate a client, from
   * the OS store and the chosen .p12/.pfx folder. Never a key: metadata and where each one lives.
   */
  GetCertificatesList: {
    args: z.strictObject({}),
    result: z.object({
      certificates: z.array(localCertificateSchema),
      /** Parts that could not be read (a locked .p12, a store whose tool is missing); the rest still lists. */
      problems: z.array(certificateProblemSchema),
      /** The .p12/.pfx folder in use, null when none is chosen. */
      folder: z.nullable(z.string()),
      readAt: z.string(),
    }),
  },
  /** Chooses (or, with null, forgets) the folder of .p12/.pfx files read besides the OS store. */
  SetCertificateFolder: {
    args: z.strictObject({ folder: z.nullable(z.string().check(z.minLength(1), z.maxLength(1000))) }),
    result: z.object({ folder: z.nullable(z.string()) }),
  },
  /**
   * The password of one .p12/.pfx file of the folder, asked once: checked against the file, then kept
   * encrypted on this machine (safeStorage in Electron, a 0600 key file in the agent). Never sent anywhere.
   */
  UnlockCertificateFile: {
    args: z.strictObject({ file: z.string().check(z.minLength(1), z.maxLength(255)), password: z.string().check(z.maxLength(1000)) }),
    result: z.object({ file: z.string(), certificates: z.int().check(z.nonnegative()) }),
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
