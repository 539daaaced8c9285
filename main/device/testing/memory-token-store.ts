import type { DeviceLinkRecord, DeviceTokenStore } from '../token-store.ts';

/** The token store without a disk, for tests of what sits on top of it. */
export function memoryTokenStore(initial: DeviceLinkRecord | null = null): DeviceTokenStore & { saved(): DeviceLinkRecord | null } {
  let record = initial;
  return {
    saved: () => record,
    read: async () => record,
    write: async (next) => {
      record = next;
    },
    clear: async () => {
      record = null;
    },
  };
}
