import type { AutopilotAppId, AutopilotCertificate, AutopilotSnapshot, CertificateAppId } from '#shared/autopilot/state.ts';
import { BridgeFailure } from '../bridge/failure.ts';
import type { DeviceLinkService } from '../device/connection.ts';
import type { AltasForAutopilot } from './altas-app.ts';
import type { DehuForAutopilot } from './notifications-app.ts';

/**
 * What the bridge may ask of this PC's autopilot (GetAutopilot, SetAutopilotSwitch, ...). Each call
 * answers the snapshot after it. Refusals throw AutopilotRefusal with a Spanish message.
 */
export interface AutopilotControl {
  snapshot(): Promise<AutopilotSnapshot>;
  setSwitch(app: 'all' | AutopilotAppId, enabled: boolean): Promise<AutopilotSnapshot>;
  setCertificates(app: CertificateAppId, certificates: AutopilotCertificate[]): Promise<AutopilotSnapshot>;
  deleteTask(taskId: string): Promise<AutopilotSnapshot>;
  /** The desktop app's loop runs while the panel is open; the agent's always runs. */
  setPanelOpen(open: boolean): Promise<AutopilotSnapshot>;
}

/** The autopilot as its host (agent or Electron main) holds it. */
export interface AutopilotService extends AutopilotControl {
  /** Opens the task cache (resyncing with the server) and, in the agent, starts the loop. */
  start(): Promise<void>;
  /** Stops the ticks and timers, waits for the step under way (a running robot is left to the run loop), closes the cache. */
  stop(): Promise<void>;
  /** Called with the snapshot after every change; returns the unsubscribe. */
  onChange(listener: (snapshot: AutopilotSnapshot) => void): () => void;
}

export type AutopilotRefusalCode = 'UNAVAILABLE' | 'FORBIDDEN' | 'NOT_FOUND' | 'NOT_LINKED' | 'FAILED';

/**
 * An expected refusal (an app that cannot load yet, a running task, no device link), in Spanish. It is a
 * BridgeFailure, like DeviceError: the bridge answers it with its code and message as it is.
 */
export class AutopilotRefusal extends BridgeFailure {
  constructor(code: AutopilotRefusalCode, message: string) {
    super(code, message);
    this.name = 'AutopilotRefusal';
  }
}

/** What a host (agent, Electron main) gives createAutopilot (main/autopilot/index.ts). */
export interface AutopilotOptions {
  /** The host's own folder: the task cache is autopilot.sqlite in it. */
  dataFolder: string;
  /** This PC's device link: link.client() is null while unlinked (then nothing is pulled or launched). */
  link: DeviceLinkService;
  /** The agent's loop always runs; the desktop app's only while the panel is open. */
  host: 'electron' | 'agent';
  now?: () => Date;
  log?: (message: string) => void;
  /** After a 299 run (the device stopped it), when its slot is tried again. Default 60 s (hosts read AUTOPILOT_RETRY_MS). */
  retryAfterAbortMs?: number;
  /** How often a launched slot's run is looked at. Default 1 s. */
  followEveryMs?: number;
  /** node-cron's schedule by default; tests tick by hand. */
  cron?: (expression: string, tick: () => Promise<void>) => { stop(): void };
  /** The apps' refresh timers (setInterval by default); tests fire them by hand. */
  every?: (ms: number, tick: () => void) => { stop(): void };
  /** Whether the process of a claim found at start still exists (signal 0 by default). */
  isProcessAlive?: (pid: number) => boolean;
  /** The altas service (main/altas/desktop.ts): the 'Altas desasistidas' app loads and runs with it; without it that app has nothing to do. */
  altas?: AltasForAutopilot;
  /** The DEHÚ service (main/dehu/desktop.ts): the 'Notificaciones' app loads and runs with it; without it that app has nothing to do. */
  dehu?: DehuForAutopilot;
}
