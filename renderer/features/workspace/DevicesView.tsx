import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CSSProperties } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import { useMachinesQuery } from '../../api/machines.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { FirmConfigs } from './FirmConfigs.tsx';
import { Button, EmptyState, IconSearch, InfoCard, IconInfo, SearchInput, Spinner } from '../../ui/index.ts';
import { MachineCard } from './MachineCard.tsx';
import { MachineDetail } from './MachineDetail.tsx';
import { useLocalDevice } from './useLocalDevice.ts';
import type { LocalDevice } from './useLocalDevice.ts';
import { groupMachines, machineConnection, matchingCertificates } from './workspaceModel.ts';

const LOCAL = 'local';

/** On a phone the detail is below the cards: bring it into view once drawn (no move when it already shows). */
function revealDetail() {
  requestAnimationFrame(() => {
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    document.getElementById('workspace-detail-title')?.scrollIntoView?.({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
  });
}

/** How many cards a group holds, for its width in the row of groups (workspace.css). */
const cardsWide = (count: number) => ({ '--cards': count }) as CSSProperties;

interface CardEntry {
  key: string;
  title: string;
  machine: Machine | undefined;
  shown: number;
  total: number;
}

/** A card per device with the certificates that match the search; all of them when there is none. */
function machineEntry(machine: Machine, query: string): CardEntry {
  return {
    key: machine._id,
    title: machine.savedAs,
    machine,
    shown: matchingCertificates(machine.certificates, machine.savedAs, query).length,
    total: machine.certificates.length,
  };
}

function localEntry(device: LocalDevice, machine: Machine | undefined, query: string): CardEntry {
  const certificates = device.list?.certificates ?? [];
  const deviceName = machine?.savedAs ?? device.identity?.machineName ?? '';
  return { key: LOCAL, title: workspace.card.localTitle, machine, shown: matchingCertificates(certificates, deviceName, query).length, total: certificates.length };
}

/**
 * 'Dispositivos' (spec §2 selector): this PC first (embedded only), then the user's other machines,
 * then the ones the firm shares, each a card; the selected one's certificates and configurations below.
 */
export function DevicesView() {
  const local = useLocalDevice();
  const machines = useMachinesQuery();
  const [query, setQuery] = useState('');
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  // ?dispositivo=<machine id>&detalle=configuraciones: where the email wizard sends the user after saving.
  const [params] = useSearchParams();
  const requested = params.get('dispositivo');
  const searching = query.trim() !== '';

  const groups = groupMachines(machines.data ?? [], local.identity?.machineHashCode ?? null);
  // While searching, a device with no matching certificate leaves the list (this PC too, once read).
  const visible = (entry: CardEntry) => !searching || entry.shown > 0;
  const localCard = local.available ? localEntry(local, groups.local, query) : undefined;
  const showLocal = localCard !== undefined && (visible(localCard) || (searching && !local.list));
  const mine = groups.mine.map((machine) => machineEntry(machine, query)).filter(visible);
  const shared = groups.shared.map((machine) => machineEntry(machine, query)).filter(visible);
  const entries = [...(showLocal && localCard ? [localCard] : []), ...mine, ...shared];
  const selected =
    entries.find((entry) => entry.key === selectedKey) ?? (selectedKey === null ? entries.find((entry) => entry.machine?._id === requested) : undefined) ?? entries[0];
  const initialTab = selected !== undefined && selected.machine?._id === requested && params.get('detalle') === 'configuraciones' ? 'configs' : 'certificates';

  const card = (entry: CardEntry, index: number) => (
    <li key={entry.key}>
      <MachineCard
        title={entry.title}
        owner={entry.machine && !entry.machine.mine ? entry.machine.owner.name || entry.machine.owner.email : undefined}
        shared={entry.machine?.shared ?? false}
        shown={entry.shown}
        total={entry.total}
        searching={searching}
        lastSyncAt={entry.machine?.lastSyncAt ?? null}
        connection={machineConnection(entry.machine)}
        reading={entry.key === LOCAL && local.reading && !local.list}
        selected={entry === selected}
        index={index}
        onSelect={() => {
          setSelectedKey(entry.key);
          revealDetail();
        }}
      />
    </li>
  );

  const section = (title: string, list: CardEntry[], offset: number) => (
    <ul className="workspace-cards" aria-label={workspace.sections.cardsLabel(title)}>
      {list.map((entry, index) => card(entry, offset + index))}
    </ul>
  );

  const loaded = machines.data !== undefined;
  const nothingMatches = searching && entries.length === 0 && loaded && (!local.available || local.list !== null);

  return (
    <div className="workspace-devices">
      {!local.available && <WebNotice />}
      <div className="workspace-devices__search">
        <SearchInput label={workspace.search.label} placeholder={workspace.search.placeholder} value={query} onSearch={setQuery} />
      </div>

      <div className="workspace-groups">
        {showLocal && localCard && (
          <section className="workspace-group" style={cardsWide(1)} aria-labelledby="workspace-local-title">
            <h2 id="workspace-local-title" className="workspace-group__title">{workspace.sections.local}</h2>
            {section(workspace.sections.local, [localCard], 0)}
          </section>
        )}
        {loaded && mine.length > 0 && (
          <section className="workspace-group" style={cardsWide(mine.length)} aria-labelledby="workspace-mine-title">
            <h2 id="workspace-mine-title" className="workspace-group__title">{workspace.sections.mine}</h2>
            {section(workspace.sections.mine, mine, showLocal ? 1 : 0)}
          </section>
        )}
        {loaded && (shared.length > 0 || !searching) && (
          <section className="workspace-group" style={cardsWide(Math.max(1, shared.length))} aria-labelledby="workspace-shared-title">
            <h2 id="workspace-shared-title" className="workspace-group__title">{workspace.sections.shared}</h2>
            {shared.length > 0 ? (
              section(workspace.sections.shared, shared, (showLocal ? 1 : 0) + mine.length)
            ) : (
              <p className="ui-muted workspace-group__empty">{workspace.machines.noneShared}</p>
            )}
          </section>
        )}
      </div>

      {machines.isLoading && <Spinner label={workspace.machines.loading} />}
      {machines.isError && (
        <div role="alert" className="ui-inline-error">
          <p>{workspace.machines.failed}</p>
          <Button variant="ghost" onClick={() => void machines.refetch()}>{workspace.retry}</Button>
        </div>
      )}

      {nothingMatches && (
        <EmptyState icon={<IconSearch />} title={workspace.search.noResults(query.trim())} text={workspace.search.noResultsHint} />
      )}

      {selected && (
        <MachineDetail
          key={selected.key}
          initialTab={initialTab}
          title={selected.title}
          machine={selected.machine}
          local={selected.key === LOCAL ? local : undefined}
          query={query}
          onDeleted={() => setSelectedKey(null)}
        />
      )}

      {!searching && <FirmConfigs />}
    </div>
  );
}

/** Spec §6 web mode: no local certificates here, and how to reach them through a shared machine. */
function WebNotice() {
  const text = workspace.web;
  return (
    <InfoCard title={text.title} tone="info" icon={<IconInfo />}>
      <p>{text.intro}</p>
      <ol className="ui-list">
        {text.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </InfoCard>
  );
}
