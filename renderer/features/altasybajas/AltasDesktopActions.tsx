import { useEffect, useId, useState } from 'react';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { useThisDeviceLink } from '../../api/useThisDeviceLink.ts';
import { useAppDispatch, useBridge, useToast } from '../../app/hooks.ts';
import { toastShown } from '../../app/toasts.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { submissionsChanged } from './altasApi.ts';
import { a3Outcome, redOutcome } from './altasModel.ts';

/** Spec §5 Launch and selection. */
export const NO_SELECTION_MESSAGE = 'Necesitas seleccionar al menos un Alta para continuar.';
export const NO_CERTIFICATE_MESSAGE = 'Necesitas seleccionar un certificado para continuar.';
const RESULT_TOAST_MS = 5000;

type Channel = 'red-online' | 'afi';

/**
 * 'Altas Automáticas S. RED': the selected registrations into RED Online (or an AFI remittance for
 * SILTRA) from this PC with the chosen certificate. In the browser it says the action is desktop-only.
 */
/** `onDone` gets the ids the robot answered for, so the screen can let go of them. */
export function RedSyncButton({ selectedIds, onDone }: { selectedIds: readonly string[]; onDone?: (ids: readonly string[]) => void }) {
  const bridge = useBridge();
  const toast = useToast();
  const [open, setOpen] = useState(false);

  const start = () => {
    if (selectedIds.length === 0) toast.error(NO_SELECTION_MESSAGE);
    else if (!bridge.available) toast.info(text.desktop.needsDesktop, RESULT_TOAST_MS);
    else setOpen(true);
  };

  return (
    <>
      <Button onClick={start}>{text.dashboard.syncRed}</Button>
      {open && <RedSyncDialog selectedIds={selectedIds} onDone={onDone} onClose={() => setOpen(false)} />}
    </>
  );
}

function RedSyncDialog({ selectedIds, onDone, onClose }: { selectedIds: readonly string[]; onDone?: (ids: readonly string[]) => void; onClose: () => void }) {
  const bridge = useBridge();
  // The robots answer the server with this PC's device token: the PC is linked to the user first.
  const linkThisDevice = useThisDeviceLink();
  const dispatch = useAppDispatch();
  const errorId = useId();
  const [certificates, setCertificates] = useState<LocalCertificate[] | null>(null);
  const [certificate, setCertificate] = useState('');
  const [channel, setChannel] = useState<Channel>('red-online');
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void bridge.invoke('GetCertificatesList', {}).then((answer) => {
      if (!current) return;
      setCertificates(answer.ok ? answer.data.certificates : []);
      if (!answer.ok) setError(answer.error.message);
    });
    return () => {
      current = false;
    };
  }, [bridge]);

  const submit = async () => {
    if (certificate === '') {
      setError(NO_CERTIFICATE_MESSAGE);
      return;
    }
    setRunning(true);
    setError(null);
    try {
      const link = await linkThisDevice();
      if (!link.ok) {
        setError(link.message);
        return;
      }
      const answer = await bridge.invoke('SyncSubmissions', { submissionIds: [...selectedIds], certificate, channel });
      if (!answer.ok) {
        setError(answer.error.message || text.desktop.redFailed);
        return;
      }
      const outcome = redOutcome(answer.data);
      dispatch(toastShown(outcome.failedOnly ? 'error' : 'success', outcome.lines.join('\n'), RESULT_TOAST_MS));
      onDone?.(answer.data.results.map((result) => result.submissionId));
      onClose();
    } catch {
      setError(text.desktop.redFailed);
    } finally {
      setRunning(false);
      // Each registration's RED state changed, or may have: show what the server holds now.
      dispatch(submissionsChanged());
    }
  };

  return (
    <Modal
      open
      size="small"
      title={text.desktop.redTitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.desktop.cancel}</Button>
          <Button loading={running} onClick={() => void submit()}>{text.desktop.start}</Button>
        </>
      }
    >
      <div className="altas-dialog">
        <fieldset className="altas-dialog__group" aria-describedby={error ? errorId : undefined}>
          <legend>{text.desktop.certificate}</legend>
          {certificates === null ? (
            <p className="ui-muted">{text.desktop.loadingCertificates}</p>
          ) : certificates.length === 0 ? (
            <p className="ui-muted">{text.desktop.noCertificates}</p>
          ) : (
            certificates.map((item) => (
              <label key={item.fingerprint} className="altas-dialog__option">
                <input
                  type="radio"
                  name="altas-certificate"
                  value={item.fingerprint}
                  checked={certificate === item.fingerprint}
                  onChange={() => setCertificate(item.fingerprint)}
                />
                <span>{item.commonName}</span>
              </label>
            ))
          )}
        </fieldset>
        <fieldset className="altas-dialog__group">
          <legend>{text.desktop.channel}</legend>
          <label className="altas-dialog__option">
            <input type="radio" name="altas-channel" checked={channel === 'red-online'} onChange={() => setChannel('red-online')} />
            <span>{text.desktop.channelRed}</span>
          </label>
          <label className="altas-dialog__option">
            <input type="radio" name="altas-channel" checked={channel === 'afi'} onChange={() => setChannel('afi')} />
            <span>{text.desktop.channelAfi}</span>
          </label>
        </fieldset>
        {error && <p id={errorId} className="altas-field__error" role="alert">{error}</p>}
      </div>
    </Modal>
  );
}

/** 'Sincronizar con A3': the selected registrations into A3's '202 – MA' import from this PC. */
export function A3SyncButton({ selectedIds, onDone }: { selectedIds: readonly string[]; onDone?: (ids: readonly string[]) => void }) {
  const bridge = useBridge();
  // The robots answer the server with this PC's device token: the PC is linked to the user first.
  const linkThisDevice = useThisDeviceLink();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const [syncing, setSyncing] = useState(false);

  const sync = async () => {
    if (selectedIds.length === 0) {
      toast.error(NO_SELECTION_MESSAGE);
      return;
    }
    if (!bridge.available) {
      toast.info(text.desktop.a3NeedsDesktop, RESULT_TOAST_MS);
      return;
    }
    setSyncing(true);
    try {
      const link = await linkThisDevice();
      if (!link.ok) {
        toast.error(link.message);
        return;
      }
      const answer = await bridge.invoke('SyncSubmissionsToA3', { submissionIds: [...selectedIds] });
      if (!answer.ok) toast.error(answer.error.message || text.desktop.a3Failed);
      else {
        const outcome = a3Outcome(answer.data);
        dispatch(toastShown(outcome.failedOnly ? 'error' : 'success', outcome.lines.join('\n'), RESULT_TOAST_MS));
        onDone?.(answer.data.results.map((result) => result.submissionId));
      }
    } catch {
      toast.error(text.desktop.a3Failed);
    } finally {
      setSyncing(false);
      dispatch(submissionsChanged());
    }
  };

  return (
    <Button variant="secondary" loading={syncing} onClick={() => void sync()}>
      {text.dashboard.syncA3}
    </Button>
  );
}
