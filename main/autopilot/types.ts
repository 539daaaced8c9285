import type { AutopilotAppId, AutopilotCertificate, AutopilotSnapshot, CertificateAppId } from '#shared/autopilot/state.ts';

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

/** An expected refusal (an app that cannot load yet, a running task, no device link), in Spanish. */
export class AutopilotRefusal extends Error {
  constructor(
    readonly code: AutopilotRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'AutopilotRefusal';
  }
}
