import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AutopilotAppId, AutopilotSnapshot, CertificateAppId } from '#shared/autopilot/state.ts';
import { formatMadridDate, formatMadridTime } from '#shared/time/madrid.ts';
import { useBridge } from '../../app/hooks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { IconRobot } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { AppControls } from './AppControls.tsx';
import { withAdded, withRemoved } from './certificates.ts';
import { CertificatePicker } from './CertificatePicker.tsx';
import { PlayIcon } from './icons.tsx';
import { TaskList } from './TaskList.tsx';
import { rowFromTask, willLaunchToday } from './taskRows.ts';
import type { TaskRow } from './taskRows.ts';
import { useAutopilotCommands, useAutopilotSnapshot, useNow, usePanelOpenSignal } from './useAutopilotSnapshot.ts';

/** The panel in the desktop app: this PC's tasks on the left, the apps' switches on the right. */
export function DesktopAutopilot({ onLeave }: { onLeave: () => void }) {
  const bridge = useBridge();
  const { snapshot, loadError, retry, accept } = useAutopilotSnapshot(bridge);
  usePanelOpenSignal(bridge, accept);
  const commands = useAutopilotCommands(accept);
  const now = useNow(1000);
  const [picking, setPicking] = useState<CertificateAppId | null>(null);

  if (snapshot === null) {
    if (loadError === null) return <Spinner label={text.loading} />;
    return (
      <div role="alert" className="autopilot-error">
        <p>{loadError}</p>
        <Button variant="secondary" onClick={retry}>{text.retry}</Button>
      </div>
    );
  }

  const pickingApp = picking === null ? undefined : snapshot.apps.find((app) => app.id === picking);
  if (pickingApp !== undefined && picking !== null) {
    const add = async (chosen: Parameters<typeof withAdded>[1]) => {
      const done = await commands.perform(`certificates:${picking}`, () =>
        bridge.invoke('SetAutopilotCertificates', { app: picking, certificates: withAdded(pickingApp, chosen) }),
      );
      if (done) setPicking(null);
    };
    return (
      <>
        {commands.error && <p role="alert" className="autopilot-error">{commands.error}</p>}
        <CertificatePicker app={pickingApp} busy={commands.pending !== null} onBack={() => setPicking(null)} onAdd={(chosen) => void add(chosen)} />
      </>
    );
  }

  const setSwitch = (app: 'all' | AutopilotAppId, enabled: boolean) =>
    void commands.perform(`switch:${app}`, () => bridge.invoke('SetAutopilotSwitch', { app, enabled }));
  const removeCertificate = (app: CertificateAppId, fingerprint: string) => {
    const current = snapshot.apps.find((candidate) => candidate.id === app);
    if (!current) return;
    void commands.perform(`certificates:${app}`, () => bridge.invoke('SetAutopilotCertificates', { app, certificates: withRemoved(current, fingerprint) }));
  };

  return (
    <>
      {commands.error && <p role="alert" className="autopilot-error">{commands.error}</p>}
      <div className="autopilot-columns">
        <TasksColumn snapshot={snapshot} now={now} onLeave={onLeave} commands={commands} />
        <AppsColumn>
          <AppControls
            snapshot={snapshot}
            now={now}
            pending={commands.pending}
            onSwitch={setSwitch}
            onAddCertificate={(app) => {
              commands.clearError();
              setPicking(app);
            }}
            onRemoveCertificate={removeCertificate}
          />
        </AppsColumn>
      </div>
    </>
  );
}

function AppsColumn({ children }: { children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="autopilot-column" aria-labelledby={headingId}>
      <h3 id={headingId} className="autopilot-column__title">{text.appsTitle}</h3>
      {children}
    </section>
  );
}

/** '«Modelo 111» no se lanzará el 10/03/2025 a las 13:30…', Madrid time. */
function confirmText(row: TaskRow): string {
  const when = new Date(row.scheduledDate);
  return text.confirmText(row.title, text.when(formatMadridDate(when), formatMadridTime(when)), row.repeat !== null);
}

interface TasksColumnProps {
  snapshot: AutopilotSnapshot;
  now: Date;
  onLeave: () => void;
  commands: ReturnType<typeof useAutopilotCommands>;
}

function TasksColumn({ snapshot, now, onLeave, commands }: TasksColumnProps) {
  const bridge = useBridge();
  const headingId = useId();
  const [confirming, setConfirming] = useState<TaskRow | null>(null);
  const rows = snapshot.tasks.map(rowFromTask);
  const ready = willLaunchToday(snapshot, now);
  const playText = ready ? text.playReady : text.playIdle;

  const remove = async (row: TaskRow) => {
    await commands.perform(`delete:${row.id}`, () => bridge.invoke('DeleteAutopilotTask', { taskId: row.id }));
    setConfirming(null);
  };

  return (
    <section className="autopilot-column" aria-labelledby={headingId}>
      <div className="autopilot-column__head">
        <h3 id={headingId} className="autopilot-column__title">{text.tasksTitle}</h3>
        <span
          className={ready ? 'autopilot-play autopilot-play--ready' : 'autopilot-play'}
          role="img"
          aria-label={playText}
          title={playText}
        >
          <PlayIcon />
        </span>
      </div>
      {!snapshot.linked && (
        <div className="autopilot-notice" role="status">
          <p className="autopilot-notice__title">{text.notLinkedTitle}</p>
          <p>{text.notLinkedText}</p>
          <Link to={text.workspacePath} onClick={onLeave}>{text.notLinkedLink}</Link>
        </div>
      )}
      {rows.length === 0 ? (
        <EmptyState title={text.emptyEmbedded} icon={<IconRobot size={32} />} headingLevel={3} />
      ) : (
        <TaskList
          rows={rows}
          now={now}
          renderActions={(row) =>
            row.removable && (
              <Button variant="ghost" aria-label={text.removeLabel(row.title)} disabled={commands.pending !== null} onClick={() => setConfirming(row)}>
                {text.remove}
              </Button>
            )
          }
        />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={text.confirmTitle}
        text={confirming ? confirmText(confirming) : ''}
        confirmLabel={text.remove}
        busy={commands.pending !== null}
        onConfirm={() => confirming && void remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
