import type { DeviceLink } from '#shared/api/devices.ts';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeClient } from './types.ts';

export type DeviceStatus = BridgeResult<'LinkDevice'>;
export type LinkedMachine = NonNullable<DeviceStatus['machine']>;

/** Asks the server for a device token for this PC (POST /api/machines/link); a Spanish message when refused. */
export type RequestDeviceLink = (identity: { machineHashCode: string; machineName: string }) => Promise<
  { ok: true; link: DeviceLink } | { ok: false; message: string }
>;

export type DeviceLinkOutcome = { ok: true; machine: LinkedMachine; status: DeviceStatus } | { ok: false; message: string };

/**
 * The server the window came from, as LinkDevice wants it: an origin, no path. The desktop window
 * loads the server's own page, so this is the server the token is for.
 */
export function windowServerUrl(): string {
  return window.location.origin;
}

/** Linked to this server, and the desktop reports nothing wrong with its token. */
export function isLinkedTo(status: DeviceStatus, serverUrl: string): status is DeviceStatus & { machine: LinkedMachine } {
  return status.linked && status.machine !== null && status.serverUrl === serverUrl && status.problem === null;
}

/**
 * Links this PC to the signed-in user's account: its hash and name (GetMachineHashCode), a device
 * token from the server, then LinkDevice hands the token to the desktop, which checks it and keeps it.
 */
export async function linkThisDevice(bridge: BridgeClient, requestLink: RequestDeviceLink, serverUrl: string): Promise<DeviceLinkOutcome> {
  const identity = await bridge.invoke('GetMachineHashCode', {});
  if (!identity.ok) return { ok: false, message: identity.error.message };
  const answer = await requestLink(identity.data);
  if (!answer.ok) return answer;
  const linked = await bridge.invoke('LinkDevice', { serverUrl, deviceToken: answer.link.deviceToken });
  if (!linked.ok) return { ok: false, message: linked.error.message };
  return { ok: true, machine: linked.data.machine ?? answer.link.machine, status: linked.data };
}

/**
 * This PC, linked and ready to run a desktop flow: as it is when GetDeviceStatus says it is linked to
 * this server without a problem; otherwise linked now (a revoked or foreign token is replaced).
 */
export async function ensureDeviceLinked(
  bridge: BridgeClient,
  requestLink: RequestDeviceLink,
  serverUrl: string,
  isMyMachine: (machineId: string) => Promise<boolean> = async () => true,
): Promise<DeviceLinkOutcome> {
  const status = await bridge.invoke('GetDeviceStatus', {});
  if (!status.ok) return { ok: false, message: status.error.message };
  // Linked to this server for another account (a colleague of another firm signed in on this PC before):
  // its machine is not the user's, so runs on it would not be found; the PC is linked to this user instead.
  if (isLinkedTo(status.data, serverUrl) && (await isMyMachine(status.data.machine._id))) return { ok: true, machine: status.data.machine, status: status.data };
  return linkThisDevice(bridge, requestLink, serverUrl);
}
