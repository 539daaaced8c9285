import { useCallback, useState } from 'react';
import type { Notification } from '#shared/api/notifications.ts';
import { useThisDeviceLink } from '../../api/useThisDeviceLink.ts';
import { useAppDispatch, useBridge } from '../../app/hooks.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { notificationsChanged } from '../../api/notifications.ts';

/** Where opening a notification stands: asking, opening in the DEHÚ, explaining it needs its machine, or showing it. */
export type OpenStep =
  | { kind: 'idle' }
  | { kind: 'confirm'; notification: Notification; opening: boolean; error: string | null }
  | { kind: 'elsewhere'; notification: Notification }
  | { kind: 'detail'; notificationId: string };

const isOpened = (notification: Notification) => notification.estado !== 'pendiente' || notification.openedAt !== null;
const machineName = (notification: Notification) => notification.certificate.machine?.name ?? text.openFlow.unknownMachine;

/**
 * Opening a pending notification has legal effect (comparecencia): it is confirmed first, and only the
 * desktop app on the machine holding its certificate can do it (GetNotificationsFromDehu). One already
 * opened shows its detail straight away.
 */
export function useOpenNotification() {
  const bridge = useBridge();
  const linkThisDevice = useThisDeviceLink();
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<OpenStep>({ kind: 'idle' });

  const open = useCallback(
    async (notification: Notification) => {
      if (isOpened(notification)) {
        setStep({ kind: 'detail', notificationId: notification._id });
        return;
      }
      if (!bridge.available || notification.certificate.machine === null) {
        setStep({ kind: 'elsewhere', notification });
        return;
      }
      // A PC already linked to another machine than the certificate's cannot open it: say so before asking.
      const status = await bridge.invoke('GetDeviceStatus', {});
      if (status.ok && status.data.machine !== null && status.data.machine._id !== notification.certificate.machine._id) {
        setStep({ kind: 'elsewhere', notification });
        return;
      }
      setStep({ kind: 'confirm', notification, opening: false, error: null });
    },
    [bridge],
  );

  const confirm = useCallback(async () => {
    if (step.kind !== 'confirm') return;
    const { notification } = step;
    setStep({ ...step, opening: true, error: null });
    const link = await linkThisDevice();
    if (!link.ok) {
      setStep({ kind: 'confirm', notification, opening: false, error: link.message });
      return;
    }
    if (link.machine._id !== notification.certificate.machine?._id) {
      setStep({ kind: 'elsewhere', notification });
      return;
    }
    const answer = await bridge.invoke('GetNotificationsFromDehu', { notificationId: notification._id });
    if (!answer.ok) {
      setStep({ kind: 'confirm', notification, opening: false, error: answer.error.message || text.openFlow.failed });
      return;
    }
    dispatch(notificationsChanged());
    setStep({ kind: 'detail', notificationId: notification._id });
  }, [bridge, dispatch, linkThisDevice, step]);

  const close = useCallback(() => setStep({ kind: 'idle' }), []);
  return { step, open, confirm, close, machineName };
}
