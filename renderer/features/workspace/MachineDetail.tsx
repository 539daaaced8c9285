import { useState } from 'react';
import type { Machine } from '#shared/api/machines.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { EmptyState } from '../../ui/index.ts';
import { Tabs } from '../../ui/Tabs.tsx';
import { DeviceConnection } from './DeviceConnection.tsx';
import { LocalCertificates } from './LocalCertificates.tsx';
import { MachineConfigs } from './MachineConfigs.tsx';
import { OwnerSettings } from './OwnerSettings.tsx';
import { SyncedCertificates } from './SyncedCertificates.tsx';
import type { LocalDevice } from './useLocalDevice.ts';
import { matchingCertificates } from './workspaceModel.ts';

const text = workspace.detail;

type SubTab = 'certificates' | 'configs';

export interface MachineDetailProps {
  title: string;
  /** The server's record; undefined for this PC until its first sync. */
  machine: Machine | undefined;
  /** Set for this PC: its certificates come from the bridge, with the sync controls. */
  local?: LocalDevice;
  query: string;
  onDeleted: () => void;
  /** The sub-tab it opens on (the email wizard comes back to 'configs'). */
  initialTab?: SubTab;
}

/** The selected device: its certificates or its configurations, its connection, and the owner's settings. */
export function MachineDetail({ title, machine, local, query, onDeleted, initialTab = 'certificates' }: MachineDetailProps) {
  const [tab, setTab] = useState<SubTab>(initialTab);
  let certificates;
  if (local) certificates = <LocalCertificates device={local} machine={machine} query={query} />;
  else if (machine) {
    certificates = (
      <SyncedCertificates
        certificates={matchingCertificates(machine.certificates, machine.savedAs, query)}
        total={machine.certificates.length}
        machineName={machine.savedAs}
        query={query}
      />
    );
  }
  return (
    <section className="ui-card ui-section workspace-detail" aria-labelledby="workspace-detail-title">
      <h2 id="workspace-detail-title" className="ui-section__title">{title}</h2>
      <Tabs
        label={text.subTabsLabel(title)}
        tabs={[
          { value: 'certificates', label: text.certificates },
          { value: 'configs', label: text.configs },
        ]}
        value={tab}
        onChange={setTab}
      >
        {tab === 'certificates' && certificates}
        {tab === 'configs' && (machine ? <MachineConfigs machine={machine} /> : <EmptyState title={text.noConfigs} text={text.syncFirst} headingLevel={3} />)}
      </Tabs>
      <DeviceConnection machine={machine} local={local} title={machine?.savedAs ?? title} />
      {machine?.mine && <OwnerSettings key={machine._id} machine={machine} onDeleted={onDeleted} />}
    </section>
  );
}
