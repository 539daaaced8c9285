import type { BridgeCommand, BridgeArgs, BridgeResult } from '#shared/bridge/contract.ts';
import type { CertificateProblem, LocalCertificate } from '#shared/certificates/certificate.ts';
import type { AltasDesktop } from '../altas/types.ts';
import type { AutopilotControl } from '../autopilot/types.ts';
import type { DehuDesktop } from '../dehu/types.ts';
import type { DeviceConnection } from '../device/link.ts';
import type { FieDesktop } from '../fie/desktop.ts';
import type { MailDesktop } from '../mail/types.ts';
import { BridgeFailure } from './failure.ts';

export { BridgeFailure } from './failure.ts';
export type { DeviceConnection } from '../device/link.ts';

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
  /**
   * The certificate and its private key as an in-memory PKCS#12 with a one-off passphrase, for a robot's
   * browser on this PC (Playwright clientCertificates). Never written to disk, never sent anywhere.
   * Throws a Spanish Error when it is not here or its key cannot be exported.
   */
  clientCertificate(fingerprint: string): Promise<{ pfx: Buffer; passphrase: string }>;
}

/** Robots on this PC (main/robots/ + main/device/): each run in its own child process. */
export interface RobotHost {
  /**
   * Leases the run with the device token and starts its robot; resolves once it has started. With
   * flowId, refuses (and closes) a run of another flow instead of running it.
   */
  launch(executionToken: string, flowId?: string): Promise<{ runId: string; outputFolder: string }>;
  running(): number;
  /** Every run's folder is inside this one; OpenFolder opens nothing else. */
  outputRoot: string;
}

/** The desktop's own shell: Electron's shell and dialog; the agent opens folders with the OS opener. */
export interface DesktopShell {
  openFolder(folder: string): Promise<void>;
  /** Null in the headless agent (no window to hang a dialog on). */
  chooseFiles: ((options: { multiple: boolean; directory: boolean; title?: string }) => Promise<string[]>) | null;
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
  device: DeviceConnection;
  robots: RobotHost;
  shell: DesktopShell;
  /** This PC's autopilot (main/autopilot/): apps, switches and the task cache. */
  autopilot: AutopilotControl;
  /** The FIE fetch from SILTRA/FIER and the A3 import (main/fie/). */
  fie: FieDesktop;
  /** The altas' registration in RED (or an AFI for SILTRA) and their A3 import (main/altas/). */
  altas: AltasDesktop;
  /** DEHÚ's notifications through LEMA with this PC's certificates (main/dehu/). */
  dehu: DehuDesktop;
  /** Linking a mailbox in the system browser (main/mail/): answers the code, keeps no token. */
  mail: MailDesktop;
  now: () => Date;
}

export type Handler<C extends BridgeCommand> = (
  args: BridgeArgs<C>,
  ctx: BridgeContext,
) => Promise<BridgeResult<C>>;

export const DESKTOP_ONLY_MESSAGE = 'Esta acción solo está disponible en la ventana de la aplicación de escritorio.';

export function requireWindow(ctx: BridgeContext): WindowControls {
  if (!ctx.window) throw new BridgeFailure('UNAVAILABLE', DESKTOP_ONLY_MESSAGE);
  return ctx.window;
}
