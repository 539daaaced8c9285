import { useEffect, useState } from 'react';
import { useBridge, useEmbedded } from '../hooks.ts';

/** The desktop host's version from its AppStatus heartbeat; null until one arrives or outside the desktop. */
export function useHostVersion(): string | null {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    if (!embedded || !bridge.available) return undefined;
    return bridge.on('AppStatus', (status) => setVersion(status.hostVersion));
  }, [embedded, bridge]);
  return version;
}

/** The machine's hash code (GetMachineHashCode) when embedded; null otherwise or on failure. */
export function useMachineHash(): string | null {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const [hash, setHash] = useState<string | null>(null);
  useEffect(() => {
    if (!embedded || !bridge.available) return undefined;
    let live = true;
    void bridge.invoke('GetMachineHashCode', {}).then((result) => {
      if (live && result.ok) setHash(result.data.machineHashCode);
    });
    return () => {
      live = false;
    };
  }, [embedded, bridge]);
  return hash;
}
