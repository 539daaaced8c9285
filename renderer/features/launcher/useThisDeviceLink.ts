import { useCallback } from 'react';
import { useLinkDeviceMutation } from '../../api/machines.ts';
import { useBridge } from '../../app/hooks.ts';
import { ensureDeviceLinked, windowServerUrl } from '../../bridge/deviceLink.ts';
import type { DeviceLinkOutcome } from '../../bridge/deviceLink.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { asHttpError } from '../../ui/forms.ts';

/**
 * Before a desktop flow runs on this PC: the PC linked to the user's account (as it is, or linked now
 * without asking: POST /api/machines/link, then LinkDevice). The outcome's message is in Spanish.
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
          if (answer.error !== undefined) return { ok: false, message: asHttpError(answer.error)?.message ?? text.errors.launchFailed };
          return { ok: true, link: answer.data };
        },
        windowServerUrl(),
      ),
    [bridge, linkDevice],
  );
}
