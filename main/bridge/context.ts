import type { BridgeCommand, BridgeArgs, BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeErrorCode } from '#shared/bridge/envelope.ts';
import type { CertificateProblem, LocalCertificate } from '#shared/certificates/certificate.ts';

/** What a desktop window can do; absent in the headless agent. */
export interface WindowControls {
  minimize(): void;
  /** Maximizes, or restores when already maximized; returns the new state. */
  toggleMaximize(): boolean;
  close(): void;
}

export interface MachineIdentity {
  machineHashCode: string;
  machineName: string;
}

/**
 * The certificates on this PC (main/certificates/): the OS store plus a chosen folder of .p12/.pfx
 * files. Lists metadata only; keys and passwords never leave it.
 */
export interface CertificateSource {
  list(): Promise<{ certificates: LocalCertificate[]; problems: CertificateProblem[]; folder: string | null }>;
  /** Chooses (null: forgets) the .p12/.pfx folder; returns the folder now in use. */
  setFolder(folder: string | null): Promise<string | null>;
  /** Checks a file's password and keeps it encrypted on this machine; returns how many certificates it opened. */
  unlock(file: string, password: string): Promise<number>;
}

/** Everything a handler may use. Built once per host (Electron main or agent); fakes in tests. */
export interface BridgeContext {
  host: 'electron' | 'agent';
  appVersion: string;
  startedAt: Date;
  window: WindowControls | null;
  machine: () => Promise<MachineIdentity>;
  /** Where CheckAppUpdate reads `{ latest, minimum }`; null when no feed is configured. */
  updateFeedUrl: string | null;
  fetch: typeof fetch;
  runningRobots: () => number;
  certificates: CertificateSource;
  now: () => Date;
}

export type Handler<C extends BridgeCommand> = (
  args: BridgeArgs<C>,
  ctx: BridgeContext,
) => Promise<BridgeResult<C>>;

/** Thrown by handlers for an expected failure; the registry turns it into an error envelope. */
export class BridgeFailure extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
}

export const DESKTOP_ONLY_MESSAGE = 'Esta acción solo está disponible en la ventana de la aplicación de escritorio.';

export function requireWindow(ctx: BridgeContext): WindowControls {
  if (!ctx.window) throw new BridgeFailure('UNAVAILABLE', DESKTOP_ONLY_MESSAGE);
  return ctx.window;
}
