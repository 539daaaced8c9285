import type { DeviceStatus } from '#shared/bridge/contract.ts';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { DeviceConnection } from './link.ts';
import { isAllowedServerUrl } from '../settings/desktop-settings.ts';
import { DeviceError } from './errors.ts';
import { deviceServerClient, type DeviceServerClient } from './server-client.ts';
import type { DeviceLinkRecord, DeviceTokenStore } from './token-store.ts';

export const UNREADABLE_LINK_MESSAGE = 'La conexión guardada de este dispositivo no se puede leer en este equipo: vuelve a conectarlo.';
export const INSECURE_SERVER_MESSAGE = 'La dirección del servidor no es válida: usa https:// (http:// solo para este equipo).';

/** DeviceConnection (the bridge's view) plus what the run loop needs to follow the link. */
export interface DeviceLinkService extends DeviceConnection {
  /** Loads the stored link once; current() and client() are meaningful after it. */
  ready(): Promise<void>;
  current(): DeviceLinkRecord | null;
  client(): DeviceServerClient | null;
  /** The server refused this link's token (revoked, or the machine was deleted): forget it and say why. */
  tokenRefused(record: DeviceLinkRecord): Promise<void>;
  /** The last problem reaching the server, in Spanish; null once it answers again. */
  setProblem(problem: string | null): void;
  /** Called after every link, unlink or refusal with the link now in use. */
  onChange(listener: (record: DeviceLinkRecord | null) => void): () => void;
}

export interface DeviceLinkOptions {
  store: DeviceTokenStore;
  fetch: typeof fetch;
  requestTimeoutMs?: number;
}

/**
 * This PC's link to the server. The token is checked with GET /api/device/me before it is kept, so a
 * wrong or revoked token is refused with the server's message and nothing is stored.
 */
export function createDeviceLink(options: DeviceLinkOptions): DeviceLinkService {
  let record: DeviceLinkRecord | null = null;
  let client: DeviceServerClient | null = null;
  /** What was linked before the server refused it: still shown, with the problem, until the next link. */
  let refused: DeviceLinkRecord | null = null;
  let problem: string | null = null;
  let loading: Promise<void> | null = null;
  const listeners = new Set<(record: DeviceLinkRecord | null) => void>();

  const clientFor = (link: DeviceLinkRecord) =>
    deviceServerClient({ serverUrl: link.serverUrl, deviceToken: link.deviceToken, fetch: options.fetch, requestTimeoutMs: options.requestTimeoutMs });

  const use = (link: DeviceLinkRecord | null) => {
    record = link;
    client = link ? clientFor(link) : null;
    for (const listener of listeners) listener(link);
  };

  const ready = () =>
    (loading ??= options.store.read().then(
      (stored) => use(stored),
      () => {
        problem = UNREADABLE_LINK_MESSAGE;
      },
    ));

  const status = (): DeviceStatus => {
    const shown = record ?? refused;
    return { linked: record !== null, serverUrl: shown?.serverUrl ?? null, machine: shown?.machine ?? null, problem };
  };

  return {
    ready,
    current: () => record,
    client: () => client,
    async status() {
      await ready();
      return status();
    },
    async link(serverUrl, deviceToken) {
      await ready();
      const origin = serverUrl.replace(/\/+$/, '');
      if (!isAllowedServerUrl(origin)) throw new DeviceError('invalid', INSECURE_SERVER_MESSAGE);
      const identity = await clientFor({ serverUrl: origin, deviceToken, machine: { _id: '', name: '' } }).me();
      const linked: DeviceLinkRecord = { serverUrl: origin, deviceToken, machine: identity.machine };
      await options.store.write(linked);
      refused = null;
      problem = null;
      use(linked);
      return status();
    },
    async unlink() {
      await ready();
      await options.store.clear();
      refused = null;
      problem = null;
      use(null);
      return status();
    },
    async tokenRefused(link) {
      // A link made meanwhile (the user connected again) is not the one the server refused.
      if (record?.deviceToken !== link.deviceToken) return;
      await options.store.clear();
      refused = link;
      problem = DEVICE_TOKEN_INVALID_MESSAGE;
      use(null);
    },
    setProblem(next) {
      problem = next;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
