import { useEffect, useId, useState } from 'react';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { madridDayKey } from '#shared/time/madrid.ts';
import { useThisDeviceLink } from '../../api/useThisDeviceLink.ts';
import { useAppDispatch, useBridge, useSession, useToast } from '../../app/hooks.ts';
import { toastShown } from '../../app/toasts.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { fieChanged } from './fieApi.ts';
import { FieDesktopError, siltraOutcomeToast, siltraRange, syncWithA3 } from './fieDesktop.ts';

/**
 * 'Sincronizar con A3' for the selected entries: on the desktop it runs RunFieRobot and says how A3
 * answered; in the browser it explains that A3 is reached from the desktop app.
 */
export function SyncA3Button({ entryIds }: { entryIds: readonly string[] }) {
  const bridge = useBridge();
  const linkThisDevice = useThisDeviceLink();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const language = useSession().user?.language ?? 'es';
  const [syncing, setSyncing] = useState(false);

  const sync = async () => {
    if (!bridge.available) {
      toast.info(text.actions.syncNeedsDesktop, 5000);
      return;
    }
    setSyncing(true);
    try {
      // A3's answers reach the server with this PC's device token: the PC is linked to the user first.
      const link = await linkThisDevice();
      if (!link.ok) {
        toast.error(link.message);
        return;
      }
      const result = await syncWithA3(bridge, entryIds, language);
      const message = text.actions.syncDone(result.synced, result.failed);
      if (result.synced === 0 && result.failed > 0) toast.error(message);
      else toast.success(message, 5000);
    } catch (error) {
      toast.error(error instanceof FieDesktopError ? error.message : text.actions.syncFailed);
    } finally {
      setSyncing(false);
      // Each entry's A3 state changed (or may have): show what the server now holds.
      dispatch(fieChanged());
    }
  };

  return (
    <Button variant="secondary" loading={syncing} disabled={syncing || entryIds.length === 0} onClick={() => void sync()}>
      {text.actions.syncA3}
    </Button>
  );
}

/** 'Obtener de SILTRA': on the desktop, a dialog for the certificate and the day or range; in the browser, why it needs the desktop. */
export function SiltraButton() {
  const bridge = useBridge();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => (bridge.available ? setOpen(true) : toast.info(text.actions.siltraNeedsDesktop, 5000))}
      >
        {text.actions.siltra}
      </Button>
      {open && <SiltraDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function SiltraDialog({ onClose }: { onClose: () => void }) {
  const bridge = useBridge();
  const linkThisDevice = useThisDeviceLink();
  const dispatch = useAppDispatch();
  const rangeErrorId = useId();
  const [certificates, setCertificates] = useState<LocalCertificate[] | null>(null);
  const [certificate, setCertificate] = useState('');
  const [from, setFrom] = useState(() => madridDayKey(new Date()));
  const [to, setTo] = useState('');
  const [fetching, setFetching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const badRange = to !== '' && to < from;

  useEffect(() => {
    let current = true;
    void bridge.invoke('GetCertificatesList', {}).then((answer) => {
      if (!current) return;
      const list = answer.ok ? answer.data.certificates : [];
      setCertificates(list);
      setCertificate((chosen) => chosen || (list[0]?.fingerprint ?? ''));
      if (!answer.ok) setError(answer.error.message);
    });
    return () => {
      current = false;
    };
  }, [bridge]);

  const submit = async () => {
    if (certificate === '' || from === '' || badRange) return;
    setFetching(true);
    setError(null);
    try {
      // The files are uploaded with this PC's device token: the PC is linked to the user first.
      const link = await linkThisDevice();
      if (!link.ok) {
        setError(link.message);
        return;
      }
      const answer = await bridge.invoke('GetFieFromSiltra', { flowInputs: { 'input-certificate': certificate, 'input-msRange': siltraRange(from, to) } });
      if (!answer.ok) {
        setError(answer.error.message || text.actions.siltraFailed);
        return;
      }
      const toast = siltraOutcomeToast(answer.data);
      // One source failed while the other worked (the folder, or FIER): what was found is uploaded, and the user is told which failed.
      const lines = [...toast.lines, ...(answer.data.problems ?? [])];
      dispatch(toastShown(toast.kind, lines.join('\n'), toast.durationMs));
      if (answer.data.upload.processed > 0) dispatch(fieChanged());
      onClose();
    } catch {
      setError(text.actions.siltraFailed);
    } finally {
      setFetching(false);
    }
  };

  return (
    <Modal
      open
      size="small"
      title={text.siltra.title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.siltra.cancel}</Button>
          <Button loading={fetching} disabled={fetching || certificate === '' || from === '' || badRange} onClick={() => void submit()}>
            {text.siltra.submit}
          </Button>
        </>
      }
    >
      <div className="fie-siltra">
        {certificates === null ? (
          <p className="ui-muted">{text.siltra.loadingCertificates}</p>
        ) : certificates.length === 0 ? (
          <p className="ui-muted">{text.siltra.noCertificates}</p>
        ) : (
          <label className="fie-filters__field">
            <span>{text.siltra.certificate}</span>
            <select className="ui-input" value={certificate} onChange={(event) => setCertificate(event.target.value)}>
              {certificates.map((item) => (
                <option key={item.fingerprint} value={item.fingerprint}>{item.commonName}</option>
              ))}
            </select>
          </label>
        )}
        <label className="fie-filters__field">
          <span>{text.siltra.from}</span>
          <input type="date" className="ui-input" value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label className="fie-filters__field">
          <span>{text.siltra.to}</span>
          <input
            type="date"
            className="ui-input"
            value={to}
            min={from || undefined}
            aria-invalid={badRange || undefined}
            aria-describedby={badRange ? rangeErrorId : undefined}
            onChange={(event) => setTo(event.target.value)}
          />
        </label>
        {badRange && <p id={rangeErrorId} className="fie-filters__error" role="alert">{text.siltra.badRange}</p>}
        {error && <p className="fie-filters__error" role="alert">{error}</p>}
      </div>
    </Modal>
  );
}
