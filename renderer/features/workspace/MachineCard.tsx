import { formatMadridDateTime } from '#shared/time/index.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { IconMonitor } from '../../ui/index.ts';

const text = workspace.card;

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
  /** While this PC's certificates are still being read. */
  reading?: boolean;
  selected: boolean;
  /** 0-based position among the cards, for the entry animation. */
  index: number;
  onSelect: () => void;
}

/** One device as a card: a toggle button that opens its detail below the cards. */
export function MachineCard({ title, owner, shared = false, shown, total, searching, lastSyncAt, reading = false, selected, index, onSelect }: MachineCardProps) {
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
    </button>
  );
}
