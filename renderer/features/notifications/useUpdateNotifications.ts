import { useCallback, useEffect, useRef, useState } from 'react';
import { CERTIFICATE_REQUIRED_MESSAGE, UPDATE_NOTIFICATIONS_FLOW_ID } from '#shared/api/notifications.ts';
import type { WatchedCertificate } from '#shared/api/notifications.ts';
import { useExecuteMutation } from '../../api/flows.ts';
import { useMachinesQuery } from '../../api/machines.ts';
import { useThisDeviceLink } from '../../api/useThisDeviceLink.ts';
import { useAppDispatch, useBridge, useToast } from '../../app/hooks.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { asHttpError } from '../../ui/forms.ts';
import { notificationsChanged, useWatchedCertificatesQuery } from '../../api/notifications.ts';

/** How often the certificates' progress is read while an update runs. */
export const PROGRESS_POLL_MS = 2000;
/** A launch queued for an offline machine is watched this long, then left to the machine. */
const QUEUED_WATCH_MS = 15 * 60_000;
const RESULT_TOAST_MS = 6000;

/** One update round: the certificates it covers and when it started (an update older than that is not this round's). */
export interface UpdateRound {
  startedAt: number;
  keys: readonly string[];
}

export type RowProgress = 'waiting' | 'running' | 'done' | 'error';

export const certificateKey = (certificate: Pick<WatchedCertificate, 'fingerprint'> & { machine: { _id: string } }) =>
  `${certificate.machine._id}:${certificate.fingerprint}`;

/** Where a certificate of the round is: waiting (queued, or not started yet) until its machine reports this round's update. */
export function rowProgress(certificate: WatchedCertificate, round: UpdateRound | null): RowProgress {
  const update = certificate.lastUpdate;
  if (update === null) return 'waiting';
  if (round !== null && Date.parse(update.startedAt) < round.startedAt - 5000 && update.state !== 'running') return 'waiting';
  return update.state;
}

/** The certificates shown in the progress: the round's, or those the server says are running (an update started elsewhere). */
export function progressRows(certificates: readonly WatchedCertificate[], round: UpdateRound | null) {
  const inRound = round === null ? certificates.filter((item) => item.lastUpdate?.state === 'running') : certificates.filter((item) => round.keys.includes(certificateKey(item)));
  return inRound.map((certificate) => ({ certificate, progress: rowProgress(certificate, round) }));
}

export type UpdateOutcome = 'started' | 'no-certificates' | 'desktop-only' | 'failed';

/**
 * 'Actualizar notificaciones': this PC's watched certificates through the bridge (after linking the PC),
 * every other machine's through a remote launch of the update flow; polls the certificates while the
 * round runs and refetches the list when it ends.
 */
export function useUpdateNotifications() {
  const bridge = useBridge();
  const linkThisDevice = useThisDeviceLink();
  const [execute] = useExecuteMutation();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const [round, setRound] = useState<UpdateRound | null>(null);
  const [localRunning, setLocalRunning] = useState(false);
  const [starting, setStarting] = useState(false);

  // Past QUEUED_WATCH_MS a certificate still waiting (its machine never connected) no longer holds the screen busy.
  const [roundExpired, setRoundExpired] = useState(false);
  useEffect(() => {
    setRoundExpired(false);
    if (round === null) return undefined;
    const timer = setTimeout(() => setRoundExpired(true), QUEUED_WATCH_MS);
    return () => clearTimeout(timer);
  }, [round]);

  const certificatesQuery = useWatchedCertificatesQuery();
  const machinesQuery = useMachinesQuery();
  const certificates = certificatesQuery.data ?? [];
  const rows = progressRows(certificates, round);
  const active =
    localRunning || rows.some((row) => row.progress === 'running') || (!roundExpired && rows.some((row) => row.progress === 'waiting'));
  // A second subscription to the same entry, only to poll: the interval depends on the data the first one read.
  useWatchedCertificatesQuery(undefined, { pollingInterval: active ? PROGRESS_POLL_MS : 0, skipPollingIfUnfocused: false });

  // The round (or an update seen running) has just ended: the list and the summary are stale.
  const wasActive = useRef(false);
  useEffect(() => {
    if (wasActive.current && !active) dispatch(notificationsChanged());
    wasActive.current = active;
  }, [active, dispatch]);

  const start = useCallback(async (): Promise<UpdateOutcome> => {
    // Spec §6: in the browser with no machine at all, nothing can reach the DEHÚ: the desktop app is the way.
    if (!bridge.available && machinesQuery.data !== undefined && machinesQuery.data.length === 0) return 'desktop-only';
    const watched = (certificatesQuery.data ?? []).filter((item) => item.available);
    if (watched.length === 0) {
      toast.error(CERTIFICATE_REQUIRED_MESSAGE);
      return 'no-certificates';
    }
    setStarting(true);
    try {
      let thisMachineId: string | null = null;
      if (bridge.available) {
        // The desktop reports to the server with this PC's device token: the PC is linked to the user first.
        const link = await linkThisDevice();
        if (!link.ok) {
          toast.error(link.message);
          return 'failed';
        }
        thisMachineId = link.machine._id;
      }
      const local = watched.filter((item) => item.machine._id === thisMachineId);
      const remote = watched.filter((item) => item.machine._id !== thisMachineId);
      const remoteMachines = [...new Map(remote.map((item) => [item.machine._id, item.machine])).values()];

      setRound({ startedAt: Date.now(), keys: [...local, ...remote].map(certificateKey) });
      for (const machine of remoteMachines) {
        const started = await execute({
          flowId: UPDATE_NOTIFICATIONS_FLOW_ID,
          request: { inputs: {}, json: true, idempotencyKey: crypto.randomUUID(), machineId: machine._id },
        });
        if (started.data === undefined) {
          toast.error(text.update.launchFailed(machine.name, asHttpError(started.error)?.message ?? text.update.thisPcFailed));
          // Nothing will run there: its certificates leave the round instead of holding the screen busy until QUEUED_WATCH_MS.
          const notLaunched = new Set(remote.filter((item) => item.machine._id === machine._id).map(certificateKey));
          setRound((current) => current && { ...current, keys: current.keys.filter((key) => !notLaunched.has(key)) });
        } else if (started.data.state === 'queued' && started.data.machine?.online === false) toast.info(text.update.queued(machine.name), RESULT_TOAST_MS);
        else toast.info(text.update.launched(machine.name), RESULT_TOAST_MS);
      }
      if (local.length > 0) {
        setLocalRunning(true);
        void bridge
          .invoke('UpdateNotificationsList', { certificates: local.map((item) => item.fingerprint) })
          .then((answer) => {
            if (!answer.ok) toast.error(answer.error.message || text.update.thisPcFailed);
            else {
              const added = answer.data.certificates.reduce((sum, item) => sum + item.added, 0);
              const failed = answer.data.certificates.filter((item) => item.state === 'error');
              if (failed.length > 0) toast.error(failed.map((item) => `${item.commonName}: ${item.message ?? text.update.thisPcFailed}`).join('\n'));
              else toast.success(text.update.thisPcDone(added), RESULT_TOAST_MS);
            }
          })
          // The end of the round (the effect above) refreshes the list, the summary and the certificates.
          .finally(() => setLocalRunning(false));
      }
      return 'started';
    } finally {
      setStarting(false);
    }
  }, [bridge, certificatesQuery.data, machinesQuery.data, execute, linkThisDevice, toast]);

  return { start, starting, active, rows };
}
