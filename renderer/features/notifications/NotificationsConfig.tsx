import { useState } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import type { WatchedCertificate } from '#shared/api/notifications.ts';
import { formatMadridDateTime } from '#shared/time/madrid.ts';
import { useMachinesQuery } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { Button, EmptyState } from '../../ui/index.ts';
import { asHttpError } from '../../ui/forms.ts';
import { useSaveWatchedCertificatesMutation, useWatchedCertificatesQuery } from '../../api/notifications.ts';

const keyOf = (machineId: string, fingerprint: string) => `${machineId}:${fingerprint}`;

/** The last update of a watched certificate, in words: when, what it found, or why it failed. */
export function lastUpdateText(watched: WatchedCertificate | undefined): string {
  const update = watched?.lastUpdate ?? null;
  if (update === null) return text.config.never;
  if (update.state === 'running') return text.update.running;
  const when = formatMadridDateTime(new Date(update.finishedAt ?? update.startedAt));
  if (update.state === 'error') return `${when} · ${text.update.error(update.message ?? text.update.thisPcFailed)}`;
  return `${when} · ${text.update.done(update.found, update.added)}`;
}

/**
 * The configuration view: the synced certificates of the user's machines and the shared ones, grouped
 * by machine, to tick the ones whose DEHÚ mailbox the firm watches (PUT replaces the set).
 */
export function NotificationsConfig() {
  const machinesQuery = useMachinesQuery();
  const watchedQuery = useWatchedCertificatesQuery();
  const [save, saving] = useSaveWatchedCertificatesMutation();
  const toast = useToast();
  const [chosen, setChosen] = useState<ReadonlySet<string> | null>(null);

  if (machinesQuery.isLoading || watchedQuery.isLoading) return <p role="status">{text.config.loading}</p>;
  if (machinesQuery.isError || watchedQuery.isError) return <p role="alert">{text.config.loadFailed}</p>;
  const machines = (machinesQuery.data ?? []).filter((machine) => machine.certificates.length > 0);
  const watched = watchedQuery.data ?? [];
  const watchedByKey = new Map(watched.map((item) => [keyOf(item.machine._id, item.fingerprint), item]));
  const selection = chosen ?? new Set(watchedByKey.keys());
  if (machines.length === 0) return <EmptyState title={text.config.noCertificates} text={text.config.noCertificatesText} />;

  const set = (keys: string[], on: boolean) => {
    const next = new Set(selection);
    for (const key of keys) if (on) next.add(key); else next.delete(key);
    setChosen(next);
  };
  const submit = async () => {
    const certificates = [...selection].map((key) => {
      const [machineId = '', fingerprint = ''] = key.split(':');
      return { machineId, fingerprint };
    });
    const answer = await save({ certificates });
    if (answer.error !== undefined) toast.error(asHttpError(answer.error)?.message ?? text.config.saveFailed);
    else {
      setChosen(null);
      toast.success(text.config.saved, 3000);
    }
  };

  return (
    <section className="notifications-config" aria-labelledby="notifications-config-title">
      <h2 id="notifications-config-title" className="ui-section__title">{text.config.title}</h2>
      <p className="ui-muted">{text.config.intro}</p>
      {machines.map((machine) => (
        <MachineGroup key={machine._id} machine={machine} selection={selection} watchedByKey={watchedByKey} onSet={set} />
      ))}
      <div className="notifications-config__actions">
        <Button loading={saving.isLoading} onClick={() => void submit()}>{text.config.save}</Button>
      </div>
    </section>
  );
}

interface MachineGroupProps {
  machine: Machine;
  selection: ReadonlySet<string>;
  watchedByKey: ReadonlyMap<string, WatchedCertificate>;
  onSet: (keys: string[], on: boolean) => void;
}

function MachineGroup({ machine, selection, watchedByKey, onSet }: MachineGroupProps) {
  const keys = machine.certificates.map((certificate) => keyOf(machine._id, certificate.fingerprint));
  const chosenCount = keys.filter((key) => selection.has(key)).length;
  const name = machine.savedAs || machine.name;
  return (
    <fieldset className="ui-card notifications-config__machine">
      <legend>
        <strong>{name}</strong>{' '}
        <span className={`ui-chip ui-chip--${machine.online ? 'success' : 'notice'}`}>{machine.online ? text.config.online : text.config.offline}</span>{' '}
        <span className="ui-muted">{machine.mine ? text.config.mine : text.config.shared}</span>
      </legend>
      <label className="notifications-config__all">
        <input
          type="checkbox"
          checked={chosenCount === keys.length}
          ref={(input) => {
            if (input) input.indeterminate = chosenCount > 0 && chosenCount < keys.length;
          }}
          onChange={(event) => onSet(keys, event.target.checked)}
        />
        <span>{text.config.selectAll(name)}</span>
      </label>
      <ul className="notifications-config__list">
        {machine.certificates.map((certificate) => {
          const key = keyOf(machine._id, certificate.fingerprint);
          const watched = watchedByKey.get(key);
          return (
            <li key={key}>
              <label>
                <input type="checkbox" checked={selection.has(key)} onChange={(event) => onSet([key], event.target.checked)} />
                <span>
                  {certificate.subject.CN}
                  {certificate.nifVat && <span className="ui-muted"> · {certificate.nifVat}</span>}
                </span>
              </label>
              {watched && (
                <p className="ui-muted notifications-config__update">
                  {text.config.lastUpdate}: {lastUpdateText(watched)}
                  {!watched.available && ` · ${text.config.unavailable}`}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
