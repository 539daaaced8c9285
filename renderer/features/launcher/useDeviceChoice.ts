import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MACHINE_REQUIRED_MESSAGE } from '#shared/api/devices.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { useMachinesQuery } from '../../api/machines.ts';
import { useBridge, useEmbedded } from '../../app/hooks.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { THIS_DEVICE, deviceOptions } from './launcherModel.ts';
import type { DeviceOption } from './launcherModel.ts';

/** How often the machines' connection dots are refreshed while a desktop flow's launcher is open. */
export const MACHINES_REFRESH_MS = 30_000;

/**
 * The 'Dispositivo' choice of a desktop flow: in the desktop app this PC (the default) or another
 * machine the user sees; in the web app one of the user's machines or the firm's shared ones.
 * Server flows need none (`needed` false, nothing is loaded). A link may name the machine (?machine=<id>,
 * e.g. the altas screen's 'Lanzar en …' in the browser): it is chosen once the list has it.
 */
export function useDeviceChoice(flow: FlowDefinition) {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const needed = flow.runsOn === 'desktop';
  const here = needed && embedded && bridge.available;
  const machines = useMachinesQuery(undefined, { skip: !needed, pollingInterval: needed ? MACHINES_REFRESH_MS : 0 });
  const [thisHash, setThisHash] = useState<string | null>(null);
  const [key, setKey] = useState<string | null>(here ? THIS_DEVICE : null);
  const [error, setError] = useState<string | null>(null);
  const [params] = useSearchParams();
  const named = needed ? params.get('machine') : null;

  // This PC's own record is offered as 'Este dispositivo', not a second time among the others.
  useEffect(() => {
    if (!here) return undefined;
    let live = true;
    void bridge.invoke('GetMachineHashCode', {}).then((result) => {
      if (live && result.ok) setThisHash(result.data.machineHashCode);
    });
    return () => {
      live = false;
    };
  }, [here, bridge]);

  const options = useMemo<DeviceOption[]>(
    () => (needed ? deviceOptions(machines.data ?? [], here ? { name: text.device.thisDevice, machineHashCode: thisHash } : null) : []),
    [needed, here, machines.data, thisHash],
  );
  const chosen = options.find((option) => option.key === key) ?? null;

  // The machine the link named, once it is among the choices (and only until the user picks another).
  const [namedTaken, setNamedTaken] = useState(false);
  useEffect(() => {
    if (named === null || namedTaken) return;
    const option = options.find((candidate) => candidate.key === named || (candidate.thisDevice && candidate.machine?._id === named));
    if (!option) return;
    setKey(option.key);
    setNamedTaken(true);
  }, [named, namedTaken, options]);

  const choose = useCallback((next: string) => {
    setKey(next);
    setError(null);
  }, []);

  /** On Next and on launch: a desktop flow cannot go on without a device. */
  const check = useCallback((): boolean => {
    if (!needed || chosen !== null) return true;
    setError(MACHINE_REQUIRED_MESSAGE);
    return false;
  }, [needed, chosen]);

  return {
    needed,
    options,
    chosen,
    choose,
    check,
    error,
    loading: needed && machines.isLoading,
    failed: needed && machines.isError,
    reload: machines.refetch,
  };
}

export type DeviceChoice = ReturnType<typeof useDeviceChoice>;
