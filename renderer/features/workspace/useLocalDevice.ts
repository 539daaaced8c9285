import { useCallback, useEffect, useState } from 'react';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import type { BridgeError } from '#shared/bridge/envelope.ts';
import { useBridge, useEmbedded } from '../../app/hooks.ts';

export type LocalIdentity = BridgeResult<'GetMachineHashCode'>;
export type LocalDeviceStatus = BridgeResult<'GetDeviceStatus'>;
export type LocalCertificateList = BridgeResult<'GetCertificatesList'>;

export interface LocalDevice {
  /** False in web mode (or with no bridge): there is no local card at all. */
  available: boolean;
  identity: LocalIdentity | null;
  list: LocalCertificateList | null;
  /** True while the certificates are being read (first time or again). */
  reading: boolean;
  /** Why the identity or the list could not be read, in the bridge's words. */
  error: string | null;
  /** Whether this PC holds a device token, for which server, and its last problem with it (GetDeviceStatus). */
  status: LocalDeviceStatus | null;
  reload: () => void;
  reloadStatus: () => void;
  unlock: (file: string, password: string) => Promise<{ ok: true; certificates: number } | { ok: false; error: BridgeError }>;
  setFolder: (folder: string | null) => Promise<{ ok: true } | { ok: false; error: BridgeError }>;
}

/**
 * This PC through the desktop bridge: its hash and name (GetMachineHashCode), its certificates
 * (GetCertificatesList), read again after a folder change or an unlocked .p12, and its device link
 * (GetDeviceStatus), read again when AppStatus says the link changed or after a link or revoke here.
 */
export function useLocalDevice(): LocalDevice {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const available = embedded && bridge.available;
  const [identity, setIdentity] = useState<LocalIdentity | null>(null);
  const [list, setList] = useState<LocalCertificateList | null>(null);
  const [reading, setReading] = useState(available);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const [status, setStatus] = useState<LocalDeviceStatus | null>(null);
  const [statusGeneration, setStatusGeneration] = useState(0);
  const reloadStatus = useCallback(() => setStatusGeneration((value) => value + 1), []);

  useEffect(() => {
    if (!available) return undefined;
    let live = true;
    void bridge.invoke('GetMachineHashCode', {}).then((result) => {
      if (!live) return;
      if (result.ok) setIdentity(result.data);
      else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [available, bridge]);

  useEffect(() => {
    if (!available) return undefined;
    let live = true;
    void bridge.invoke('GetCertificatesList', {}).then((result) => {
      if (!live) return;
      setReading(false);
      if (result.ok) {
        setList(result.data);
        setError(null);
      } else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [available, bridge, generation]);

  useEffect(() => {
    if (!available) return undefined;
    let live = true;
    void bridge.invoke('GetDeviceStatus', {}).then((result) => {
      if (live && result.ok) setStatus(result.data);
    });
    return () => {
      live = false;
    };
  }, [available, bridge, statusGeneration]);

  // The desktop tells every second whether it holds a token: a change (linked or dropped) is read again.
  useEffect(() => {
    if (!available) return undefined;
    let seen: boolean | null = null;
    return bridge.on('AppStatus', ({ deviceLinked }) => {
      if (seen !== null && seen !== deviceLinked) reloadStatus();
      seen = deviceLinked;
    });
  }, [available, bridge, reloadStatus]);

  const reload = useCallback(() => {
    setReading(true);
    setGeneration((value) => value + 1);
  }, []);

  const unlock = useCallback<LocalDevice['unlock']>(
    async (file, password) => {
      const result = await bridge.invoke('UnlockCertificateFile', { file, password });
      if (!result.ok) return result;
      reload();
      return { ok: true, certificates: result.data.certificates };
    },
    [bridge, reload],
  );

  const setFolder = useCallback<LocalDevice['setFolder']>(
    async (folder) => {
      const result = await bridge.invoke('SetCertificateFolder', { folder });
      if (!result.ok) return result;
      reload();
      return { ok: true };
    },
    [bridge, reload],
  );

  return { available, identity, list, reading, error, status, reload, reloadStatus, unlock, setFolder };
}
