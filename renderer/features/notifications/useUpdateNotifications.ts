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

/**
 * Where a certificate of the round is: waiting (queued, or not started yet) until its machine reports this
 * round's update. An update the server says is pending for its machine (issue 43: queued for a PC that is
 * offline, even from before a reload) waits until the machine reports one started after it was queued.
 */
export function rowProgress(certificate: WatchedCertificate, round: UpdateRound | null): RowProgress {
  const update = certificate.lastUpdate;
  if (update === null) return 'waiting';
  if (update.state === 'running') return 'running';
  const pending = certificate.pendingUpdate;
  if (pending !== null && Date.parse(update.startedAt) < Date.parse(pending.queuedAt)) return 'waiting';
  if (round !== null && Date.parse(update.startedAt) < round.startedAt - 5000) return 'waiting';
  return update.state;
}

/**
 * The certificates shown in the progress: the round's, and those the server says are running or have an
 * update pending on their machine (started elsewhere, or before a reload).
 */
export function progressRows(certificates: readonly WatchedCertificate[], round: UpdateRound | null) {
  const shown = certificates.filter(
    (item) => item.lastUpdate?.state === 'running' || item.pendingUpdate !== null || (round !== null && round.keys.includes(certificateKey(item))),
  );
  return shown.map((certificate) => ({ certificate, progress: rowProgress(certificate, round) }));
}

/** How often the certificates are read while only an update pending on another machine is shown (it may wait for hours). */
export const PENDING_POLL_MS = 15_000;

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
  const refetchCertificates = certificatesQuery.refetch;
  const rows = progressRows(certificates, round);
  const inRound = (row: (typeof rows)[number]) => round !== null && round.keys.includes(certificateKey(row.certificate));
  const active =
    localRunning ||
    rows.some((row) => row.progress === 'running') ||
    // A row the server holds as pending is shown as such ('En cola'), not as this screen's update in progress.
    (!roundExpired && rows.some((row) => row.progress === 'waiting' && inRound(row) && row.certificate.pendingUpdate === null));
  // The machines whose update the server already holds (queued or running): 'Actualizar' never queues them again.
  const pendingMachines = new Set(certificates.filter((item) => item.pendingUpdate !== null).map((item) => item.machine._id));
  const updatable = certificates.filter((item) => item.available);
  /** Every watched certificate already has an update pending on its machine: nothing left to ask for. */
  const allPending = updatable.length > 0 && updatable.every((item) => pendingMachines.has(item.machine._id));
  // A second subscription to the same entry, only to poll: the interval depends on the data the first one read.
  useWatchedCertificatesQuery(undefined, { pollingInterval: active ? PROGRESS_POLL_MS : pendingMachines.size > 0 ? PENDING_POLL_MS : 0, skipPollingIfUnfocused: false });

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
      // A machine whose update is still pending (queued while it is offline) is not asked again: the server would answer that same run.
      const remote = watched.filter((item) => item.machine._id !== thisMachineId && item.pendingUpdate === null);
      const remoteMachines = [...new Map(remote.map((item) => [item.machine._id, item.machine])).values()];
      if (local.length === 0 && remote.length === 0) return 'started';

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
        } else {
          if (started.data.state === 'queued' && started.data.machine?.online === false) toast.info(text.update.queued(machine.name), RESULT_TOAST_MS);
          else toast.info(text.update.launched(machine.name), RESULT_TOAST_MS);
        }
      }
      // The server now holds the pending updates: read them, so they show (and stay) without waiting for a poll.
      if (remoteMachines.length > 0) void refetchCertificates();
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
  }, [bridge, certificatesQuery.data, refetchCertificates, machinesQuery.data, execute, linkThisDevice, toast]);

  return { start, starting, active, allPending, rows };
}
