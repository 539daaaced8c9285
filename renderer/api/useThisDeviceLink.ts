import { useCallback } from 'react';
import { useBridge } from '../app/hooks.ts';
import { ensureDeviceLinked, windowServerUrl } from '../bridge/deviceLink.ts';
import type { DeviceLinkOutcome } from '../bridge/deviceLink.ts';
import { asHttpError } from '../ui/forms.ts';
import { useLinkDeviceMutation } from './machines.ts';

const LINK_FAILED_MESSAGE = 'No se ha podido conectar este dispositivo a tu cuenta.';

/**
 * Before this PC works for the user (a desktop flow, the FIE and altas robots that call the server with
 * the device token): the PC linked to the user's account (as it is, or linked now without asking: POST
 * /api/machines/link, then LinkDevice). The outcome's message is in Spanish.
 */
export function useThisDeviceLink(): () => Promise<DeviceLinkOutcome> {
  const bridge = useBridge();
  const [linkDevice] = useLinkDeviceMutation();
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
      ),
    [bridge, linkDevice],
  );
}
