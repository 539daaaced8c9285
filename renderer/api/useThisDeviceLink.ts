import { useCallback } from 'react';
import { useAppDispatch, useBridge } from '../app/hooks.ts';
import { ensureDeviceLinked, windowServerUrl } from '../bridge/deviceLink.ts';
import type { DeviceLinkOutcome } from '../bridge/deviceLink.ts';
import { asHttpError } from '../ui/forms.ts';
import { machinesApi, useLinkDeviceMutation } from './machines.ts';

const LINK_FAILED_MESSAGE = 'No se ha podido conectar este dispositivo a tu cuenta.';

/**
 * Before this PC works for the user (a desktop flow, the FIE and altas robots that call the server with
 * the device token): the PC linked to the user's account (as it is, or linked now without asking: POST
 * /api/machines/link, then LinkDevice). The outcome's message is in Spanish.
 */
export function useThisDeviceLink(): () => Promise<DeviceLinkOutcome> {
  const bridge = useBridge();
  const [linkDevice] = useLinkDeviceMutation();
  const dispatch = useAppDispatch();
  // The user's machines as the server has them now; if they cannot be read, the desktop's link is trusted.
  const isMyMachine = useCallback(
    async (machineId: string) => {
      const request = dispatch(machinesApi.endpoints.machines.initiate(undefined, { forceRefetch: true }));
      try {
        const machines = await request.unwrap();
        return machines.some((machine) => machine._id === machineId);
      } catch {
        return true;
      } finally {
        request.unsubscribe();
      }
    },
    [dispatch],
  );
  return useCallback(
    () =>
      ensureDeviceLinked(
        bridge,
        async (identity) => {
          const answer = await linkDevice(identity);
          if (answer.error !== undefined) return { ok: false, message: asHttpError(answer.error)?.message ?? LINK_FAILED_MESSAGE };
          return { ok: true, link: answer.data };
        },
        windowServerUrl(),
        isMyMachine,
      ),
    [bridge, linkDevice, isMyMachine],
  );
}
