import { useState } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import { useLinkDeviceMutation, useRevokeDeviceTokenMutation } from '../../api/machines.ts';
import { useBridge, useToast } from '../../app/hooks.ts';
import { isLinkedTo, linkThisDevice, windowServerUrl } from '../../bridge/deviceLink.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { errorMessage } from '../../ui/forms.ts';
import { ConnectionStatus } from './MachineCard.tsx';
import type { LocalDevice } from './useLocalDevice.ts';
import { machineConnection } from './workspaceModel.ts';

const text = workspace.connection;

export interface DeviceConnectionProps {
  /** The server's record; undefined for this PC until it first syncs or links. */
  machine: Machine | undefined;
  /** Set for this PC in the desktop app: it can be linked from here. */
  local?: LocalDevice;
  title: string;
}

/**
 * Whether the device can receive robots: its connection, for this PC 'Conectar este dispositivo'
 * (a device token for the signed-in user, kept by the desktop), and for its owner 'Revocar acceso'.
 */
export function DeviceConnection({ machine, local, title }: DeviceConnectionProps) {
  const toast = useToast();
  const bridge = useBridge();
  const [linkDevice] = useLinkDeviceMutation();
  const [revokeDeviceToken, { isLoading: revoking }] = useRevokeDeviceTokenMutation();
  const [linking, setLinking] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const status = local?.status ?? null;
  const thisPcLinked = status !== null && isLinkedTo(status, windowServerUrl()) && machine?.linked !== false;
  const canLink = local !== undefined && status !== null && !thisPcLinked;
  const canRevoke = machine !== undefined && machine.mine && machine.linked;

  const link = async () => {
    setLinking(true);
    const outcome = await linkThisDevice(
      bridge,
      async (identity) => {
        const answer = await linkDevice(identity);
        return answer.error !== undefined ? { ok: false, message: errorMessage(answer.error, text.serverUnreachable) } : { ok: true, link: answer.data };
      },
      windowServerUrl(),
    );
    setLinking(false);
    local?.reloadStatus();
    if (outcome.ok) toast.success(text.linked);
    else toast.error(text.linkFailed(outcome.message));
  };

  const revoke = async () => {
    try {
      await revokeDeviceToken(machine?._id ?? '').unwrap();
      toast.success(text.revoked);
    } catch (error) {
      toast.error(errorMessage(error, text.revokeFailed));
    } finally {
      setConfirming(false);
      // This PC's desktop learns of it on its next call to the server; its status then names the problem.
      local?.reloadStatus();
    }
  };

  return (
    <section className="workspace-connection" aria-labelledby="workspace-connection-title">
      <h3 id="workspace-connection-title" className="workspace-connection__title">{text.title}</h3>
      <ConnectionStatus connection={machineConnection(machine)} />
      {status?.problem && <p className="workspace-note workspace-connection__problem" role="status">{status.problem}</p>}
      {canLink && <p className="workspace-note ui-muted">{text.explainUnlinked}</p>}
      {(canLink || canRevoke) && (
        <div className="workspace-actions">
          {canLink && <Button onClick={() => void link()} loading={linking}>{text.link}</Button>}
          {canRevoke && <Button variant="danger" onClick={() => setConfirming(true)}>{text.revoke}</Button>}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={text.revokeTitle}
        text={text.revokeText(title)}
        confirmLabel={text.revokeConfirm}
        busy={revoking}
        onConfirm={() => void revoke()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
