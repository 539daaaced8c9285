import { useState } from 'react';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { useNotificationsSummaryQuery } from '../../api/notifications.ts';
import type { WatchedCertificate } from '#shared/api/notifications.ts';
import type { RowProgress } from './useUpdateNotifications.ts';
import { useUpdateNotifications } from './useUpdateNotifications.ts';

const progressTone: Record<RowProgress, string> = { waiting: 'notice', running: 'notice', done: 'success', error: 'danger' };

/** 'Actualizar notificaciones', the last update's time, and each certificate's progress while a round runs. */
export function UpdatePanel() {
  const { start, starting, active, allPending, rows } = useUpdateNotifications();
  const summary = useNotificationsSummaryQuery();
  const [desktopOnly, setDesktopOnly] = useState(false);
  const finished = rows.filter((row) => row.progress === 'done' || row.progress === 'error').length;
  const lastUpdateAt = summary.data?.lastUpdateAt ?? null;

  const onUpdate = async () => {
    if ((await start()) === 'desktop-only') setDesktopOnly(true);
  };

  return (
    <section className="notifications-update" aria-label={text.update.progressLabel}>
      <div className="notifications-update__bar">
        <Button loading={starting} disabled={starting || active || allPending} onClick={() => void onUpdate()}>
          {active ? text.update.running : allPending ? text.update.pendingButton : text.update.button}
        </Button>
        <p className="ui-muted notifications-update__last">
          {lastUpdateAt === null ? text.update.neverUpdated : text.update.lastUpdate(formatMadridDateTime(new Date(lastUpdateAt)))}
        </p>
      </div>
      {rows.length > 0 && (
        <div role="status" className="notifications-update__progress">
          <p>
            <progress max={rows.length} value={finished} aria-hidden="true" /> {text.update.progress(finished, rows.length)}
          </p>
          <ul className="notifications-update__rows">
            {rows.map(({ certificate, progress }) => (
              <li key={`${certificate.machine._id}:${certificate.fingerprint}`}>
                <span>{certificate.commonName}</span> <span className="ui-muted">· {certificate.machine.name}</span>{' '}
                <span className={`ui-chip ui-chip--${progressTone[progress]}`}>{progressLabel(progress, certificate)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <Modal
        open={desktopOnly}
        title={text.update.desktopOnlyTitle}
        onClose={() => setDesktopOnly(false)}
        size="small"
        footer={<Button onClick={() => setDesktopOnly(false)}>{text.update.close}</Button>}
      >
        <p>{text.update.desktopOnlyText}</p>
      </Modal>
    </section>
  );
}

function progressLabel(progress: RowProgress, certificate: WatchedCertificate): string {
  const update = certificate.lastUpdate;
  if (progress === 'done' && update) return text.update.done(update.found, update.added);
  if (progress === 'error') return text.update.error(update?.message ?? text.update.thisPcFailed);
  if (progress === 'running') return text.update.running;
  // Held by the server for its machine (issue 43): says since when, and what it waits for.
  const pending = certificate.pendingUpdate;
  if (pending !== null) {
    const since = formatMadridDateTime(new Date(pending.queuedAt));
    return certificate.machine.online ? text.update.pendingOnline(since) : text.update.pendingOffline(certificate.machine.name, since);
  }
  return text.update.waiting;
}
