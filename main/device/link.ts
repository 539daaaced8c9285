import type { DeviceStatus } from '#shared/bridge/contract.ts';

/** This PC's link to the server (main/device/): the device token, kept encrypted. */
export interface DeviceConnection {
  status(): Promise<DeviceStatus>;
  /** Checks the token against the server (GET /api/device/me), then stores it; throws a Spanish Error when refused. */
  link(serverUrl: string, deviceToken: string): Promise<DeviceStatus>;
  unlink(): Promise<DeviceStatus>;
}
