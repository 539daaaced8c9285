import { useEffect, useId, useState } from 'react';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { ALTAS_A3_FLOW_ID, ALTAS_RED_FLOW_ID, ALTAS_RUN_INPUTS, type AltasRedChannel } from '#shared/altas/runs.ts';
import { useThisDeviceLink } from '../../api/useThisDeviceLink.ts';
import { useAppDispatch, useBridge, useToast } from '../../app/hooks.ts';
import { toastShown } from '../../app/toasts.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { submissionsChanged } from './altasApi.ts';
import { a3RunOutcome, redRunOutcome } from './altasModel.ts';
import { useAltasRun } from './useAltasRun.ts';
import { WebRunDialog } from './WebRunDialog.tsx';

/** Spec §5 Launch and selection. */
export const NO_SELECTION_MESSAGE = 'Necesitas seleccionar al menos un Alta para continuar.';
export const NO_CERTIFICATE_MESSAGE = 'Necesitas seleccionar un certificado para continuar.';
const RESULT_TOAST_MS = 5000;
/** The section of both flows that launches them. */
const LAUNCH_STEP = 'datos';

/**
 * 'Altas Automáticas S. RED': on the desktop, the selected registrations into RED Online (or an AFI
 * remittance for SILTRA) from this PC with the chosen certificate, as a run of the flow
 * 'altas-automaticas-red' (issue 44, 5: it is in the history like any launch). In the browser (issue 44,
 * 3): a shared office machine to launch it on, the install steps when there is none, or 'Marcar como registrada'.
 * `onDone` gets the ids the robot answered for, so the screen can let go of them.
 */
export function RedSyncButton({ selectedIds, onDone }: { selectedIds: readonly string[]; onDone?: (ids: readonly string[]) => void }) {
  const bridge = useBridge();
  const toast = useToast();
  const [open, setOpen] = useState(false);

  const start = () => {
    if (bridge.available && selectedIds.length === 0) toast.error(NO_SELECTION_MESSAGE);
    else setOpen(true);
  };

  return (
    <>
      <Button onClick={start}>{text.dashboard.syncRed}</Button>
      {open && bridge.available && <RedSyncDialog selectedIds={selectedIds} onDone={onDone} onClose={() => setOpen(false)} />}
      {open && !bridge.available && <WebRunDialog kind="red" onClose={() => setOpen(false)} />}
    </>
  );
}

function RedSyncDialog({ selectedIds, onDone, onClose }: { selectedIds: readonly string[]; onDone?: (ids: readonly string[]) => void; onClose: () => void }) {
  const bridge = useBridge();
  // The run is launched on this PC: the PC is linked to the user first (its machine names the run's device).
  const linkThisDevice = useThisDeviceLink();
  const runAltas = useAltasRun();
  const dispatch = useAppDispatch();
  const errorId = useId();
  const [certificates, setCertificates] = useState<LocalCertificate[] | null>(null);
  const [certificate, setCertificate] = useState('');
  const [channel, setChannel] = useState<AltasRedChannel>('red-online');
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
      const inputs = { certificado: certificate, [ALTAS_RUN_INPUTS.ids]: selectedIds.join(','), [ALTAS_RUN_INPUTS.channel]: channel };
      const outcome = await runAltas({ flowId: ALTAS_RED_FLOW_ID, step: LAUNCH_STEP, inputs, machineId: link.machine._id });
      if (!outcome.ok) {
        setError(outcome.message || text.desktop.redFailed);
        return;
      }
      const result = redRunOutcome(outcome.output);
      dispatch(toastShown(result.failedOnly ? 'error' : 'success', result.lines.join('\n'), RESULT_TOAST_MS));
      onDone?.(selectedIds);
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
        {running && <p className="ui-muted" role="status">{text.desktop.running}</p>}
        {error && <p id={errorId} className="altas-field__error" role="alert">{error}</p>}
      </div>
    </Modal>
  );
}

/**
 * 'Sincronizar con A3': on the desktop, the selected registrations into A3's '202 – MA' import from this
 * PC, as a run of 'sincronizar-altas-a3' (in the history like any launch); in the browser, a shared
 * office machine to launch it on, or the install steps.
 */
export function A3SyncButton({ selectedIds, onDone }: { selectedIds: readonly string[]; onDone?: (ids: readonly string[]) => void }) {
  const bridge = useBridge();
  const linkThisDevice = useThisDeviceLink();
  const runAltas = useAltasRun();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const [syncing, setSyncing] = useState(false);
  const [webOpen, setWebOpen] = useState(false);

  const sync = async () => {
    if (!bridge.available) {
      setWebOpen(true);
      return;
    }
    if (selectedIds.length === 0) {
      toast.error(NO_SELECTION_MESSAGE);
      return;
    }
    setSyncing(true);
    try {
      const link = await linkThisDevice();
      if (!link.ok) {
        toast.error(link.message);
        return;
      }
      const outcome = await runAltas({ flowId: ALTAS_A3_FLOW_ID, step: LAUNCH_STEP, inputs: { [ALTAS_RUN_INPUTS.ids]: selectedIds.join(',') }, machineId: link.machine._id });
      if (!outcome.ok) toast.error(outcome.message || text.desktop.a3Failed);
      else {
        const result = a3RunOutcome(outcome.output);
        dispatch(toastShown(result.failedOnly ? 'error' : 'success', result.lines.join('\n'), RESULT_TOAST_MS));
        onDone?.(selectedIds);
      }
    } catch {
      toast.error(text.desktop.a3Failed);
    } finally {
      setSyncing(false);
      dispatch(submissionsChanged());
    }
  };

  return (
    <>
      <Button variant="secondary" loading={syncing} onClick={() => void sync()}>
        {text.dashboard.syncA3}
      </Button>
      {webOpen && <WebRunDialog kind="a3" onClose={() => setWebOpen(false)} />}
    </>
  );
}
