import { useState } from 'react';
import type { FormEvent } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import type { CertificateProblem } from '#shared/certificates/certificate.ts';
import { useSyncCertificatesMutation } from '../../api/machines.ts';
import { usePrompt, useToast } from '../../app/hooks.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, EmptyState, Spinner, TextField } from '../../ui/index.ts';
import { CertificateSelector } from './CertificateSelector.tsx';
import { errorMessage } from '../../ui/forms.ts';
import { FolderSettings } from './FolderSettings.tsx';
import type { LocalDevice } from './useLocalDevice.ts';
import { matchingCertificates, nextSyncedSet } from './workspaceModel.ts';

const text = workspace.local;

export interface LocalCertificatesProps {
  device: LocalDevice;
  /** This PC's record on the server, once it has synced. */
  machine: Machine | undefined;
  query: string;
}

/**
 * This PC's certificates as the bridge lists them, to choose and sync (metadata only) or unsync, with
 * the parts that could not be read (a locked .p12 offers 'Desbloquear') and the .p12/.pfx folder.
 */
export function LocalCertificates({ device, machine, query }: LocalCertificatesProps) {
  const toast = useToast();
  const [syncCertificates, { isLoading: syncing }] = useSyncCertificatesMutation();
  const [deviceName, setDeviceName] = useState(machine?.savedAs ?? device.identity?.machineName ?? '');
  const [nameTouched, setNameTouched] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [selectionError, setSelectionError] = useState<string | null>(null);

  // The name arrives with the bridge's answer; until the user types, it follows it.
  const suggestedName = machine?.savedAs ?? device.identity?.machineName ?? '';
  const shownName = nameTouched ? deviceName : suggestedName;

  if (device.reading && !device.list) return <Spinner label={text.reading} />;
  if (!device.list) {
    return (
      <div role="alert" className="ui-inline-error">
        <p>{device.error ?? text.readFailed}</p>
        <Button variant="ghost" onClick={device.reload}>{workspace.retry}</Button>
      </div>
    );
  }

  const all = device.list.certificates;
  const shown = matchingCertificates(all, shownName, query);
  const synced = new Set((machine?.certificates ?? []).map((certificate) => certificate.fingerprint));
  const chosen = all.filter((certificate) => selected.has(certificate.fingerprint));

  const send = async (change: 'add' | 'remove') => {
    const name = shownName.trim();
    if (name === '') {
      setNameError(text.deviceNameRequired);
      return;
    }
    if (chosen.length === 0) {
      setSelectionError(text.chooseFirst);
      return;
    }
    if (!device.identity) {
      toast.error(device.error ?? text.syncFailed);
      return;
    }
    try {
      await syncCertificates({
        machineName: name,
        request: { machineHashCode: device.identity.machineHashCode, digitalCertificates: nextSyncedSet(machine?.certificates ?? [], chosen, change) },
      }).unwrap();
      toast.success(change === 'add' ? text.synced(chosen.length) : text.unsynced(chosen.length));
      setSelected(new Set());
    } catch (error) {
      toast.error(errorMessage(error, text.syncFailed));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send('add');
  };

  return (
    <div className="workspace-local">
      {device.list.problems.length > 0 && <Problems problems={device.list.problems} device={device} />}
      {all.length === 0 ? (
        <EmptyState title={workspace.detail.noLocalCertificates} text={workspace.detail.noLocalCertificatesHint} headingLevel={3} />
      ) : (
        <form className="workspace-local__sync" onSubmit={submit} noValidate>
          <TextField
            label={text.deviceName}
            value={shownName}
            required
            error={nameError}
            reserve={[text.deviceNameRequired]}
            maxLength={100}
            onValueChange={(value) => {
              setNameTouched(true);
              setDeviceName(value);
              if (value.trim() !== '') setNameError(undefined);
            }}
          />
          {shown.length === 0 ? (
            <p className="ui-muted">{workspace.search.noResults(query)}</p>
          ) : (
            <CertificateSelector
              certificates={shown}
              selected={selected}
              synced={synced}
              onChange={(next) => {
                setSelected(next);
                if (next.size > 0) setSelectionError(null);
              }}
            />
          )}
          {selectionError && (
            <p role="alert" className="ui-inline-error">
              {selectionError}
            </p>
          )}
          <div className="workspace-actions">
            <Button type="submit" loading={syncing}>{text.sync}</Button>
            <Button variant="secondary" disabled={syncing} onClick={() => void send('remove')}>{text.unsync}</Button>
          </div>
          <p className="ui-muted workspace-note">{text.syncExplained}</p>
        </form>
      )}
      <FolderSettings device={device} />
    </div>
  );
}

/** What the stores could not read; a .p12 that wants its password gets 'Desbloquear'. */
function Problems({ problems, device }: { problems: readonly CertificateProblem[]; device: LocalDevice }) {
  const prompt = usePrompt();
  const toast = useToast();
  const [failures, setFailures] = useState<Record<string, string>>({});

  const unlock = async (file: string) => {
    const password = await prompt.text({ title: text.unlockTitle, label: text.unlockPassword(file), confirmLabel: text.unlock });
    if (password === null) return;
    const result = await device.unlock(file, password);
    if (result.ok) {
      setFailures(({ [file]: _gone, ...rest }) => rest);
      toast.success(text.unlocked(file, result.certificates));
    } else setFailures((previous) => ({ ...previous, [file]: result.error.message || text.unlockFailed }));
  };

  return (
    <section className="workspace-problems" aria-labelledby="workspace-problems-title">
      <h3 id="workspace-problems-title" className="workspace-problems__title">{text.problemsTitle}</h3>
      <ul className="workspace-problems__list">
        {problems.map((problem) => {
          const canUnlock = problem.store === 'pkcs12' && (problem.code === 'PASSWORD_REQUIRED' || problem.code === 'WRONG_PASSWORD');
          const failure = failures[problem.source];
          return (
            <li key={`${problem.store}:${problem.source}`} className="workspace-problems__item">
              <div className="workspace-problems__text">
                <strong>{problem.source}</strong>
                <span>{problem.message}</span>
                {failure && (
                  <span role="alert" className="ui-inline-error">
                    {failure}
                  </span>
                )}
              </div>
              {canUnlock && (
                <Button variant="secondary" aria-label={text.unlockLabel(problem.source)} onClick={() => void unlock(problem.source)}>
                  {text.unlock}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

