import { DeviceError, NOT_LINKED_MESSAGE } from './errors.ts';
import type { DeviceLinkRecord } from './token-store.ts';

/** The device link as the desktop's FIE, altas and DEHÚ services read it. */
export interface DeviceLinkReader {
  ready(): Promise<void>;
  current(): DeviceLinkRecord | null;
}

/** The server and token this PC reports to, once the link has loaded; DeviceError 'not-linked' when it is linked to no account. */
export async function requireLinkRecord(link: DeviceLinkReader): Promise<DeviceLinkRecord> {
  await link.ready();
  const record = link.current();
  if (!record) throw new DeviceError('not-linked', NOT_LINKED_MESSAGE);
  return record;
}
