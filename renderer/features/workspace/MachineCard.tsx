import { formatMadridDateTime } from '#shared/time/index.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { IconMonitor } from '../../ui/index.ts';
import type { MachineConnection } from './workspaceModel.ts';

const text = workspace.card;

/** 'Conectado' with a green dot, 'Sin conexión desde …' or 'No conectado' with a grey one. */
export function ConnectionStatus({ connection }: { connection: MachineConnection }) {
  const words = workspace.connection;
  let label: string;
  if (connection.tone === 'online') label = words.online;
  else if (connection.tone === 'unlinked') label = words.unlinked;
  else label = connection.since ? words.offlineSince(formatMadridDateTime(new Date(connection.since))) : words.offline;
  return (
    <span className={`workspace-status workspace-status--${connection.tone}`}>
      <span className="workspace-status__dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export interface MachineCardProps {
  title: string;
  /** The owner's name, for machines someone else registered. */
  owner?: string;
  shared?: boolean;
  /** Certificates that match the search, and how many there are in all. */
  shown: number;
  total: number;
  searching: boolean;
  lastSyncAt: string | null;
  connection: MachineConnection;
  /** While this PC's certificates are still being read. */
  reading?: boolean;
  selected: boolean;
  /** 0-based position among the cards, for the entry animation. */
  index: number;
  onSelect: () => void;
}

/** One device as a card: a toggle button that opens its detail below the cards. */
export function MachineCard({ title, owner, shared = false, shown, total, searching, lastSyncAt, connection, reading = false, selected, index, onSelect }: MachineCardProps) {
  const count = reading ? text.reading : searching ? text.matching(shown, total) : text.certificates(total);
  return (
    <button
      type="button"
      className={`workspace-card${selected ? ' workspace-card--selected' : ''}`}
      style={{ animationDelay: `${index * 40}ms` }}
      aria-pressed={selected}
      onClick={onSelect}
    >
      <span className="workspace-card__head">
        <IconMonitor size={18} className="workspace-card__icon" />
        <span className="workspace-card__title">{title}</span>
      </span>
      {owner !== undefined && <span className="workspace-card__line ui-muted">{text.owner(owner)}</span>}
      <span className="workspace-card__line">
        {count}
        {shared && <span className="ui-chip ui-chip--notice workspace-card__badge">{text.shared}</span>}
      </span>
      <span className="workspace-card__line ui-muted">{lastSyncAt ? text.lastSync(formatMadridDateTime(new Date(lastSyncAt))) : text.neverSynced}</span>
      <span className="workspace-card__line"><ConnectionStatus connection={connection} /></span>
    </button>
  );
}
