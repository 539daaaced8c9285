import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { FlowSummary } from '#shared/api/flows.ts';
import { groupFlows, matchesFlowSearch } from '#shared/flows/catalogue.ts';
import { flows } from '../../i18n/es-flows.ts';
import { SearchInput, Spinner } from '../../ui/index.ts';
import { LoadFailed } from './LoadSection.tsx';

const text = flows.catalogue;

export interface CatalogueListProps {
  catalogue: readonly FlowSummary[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  /** The robot shown on the right; none means the history is shown. */
  selectedId: string | undefined;
  /** Outside the desktop app every robot carries the BETA tag (spec §2). */
  showBeta: boolean;
}

/** The left panel: the history entry, then the robots by group, with a search. */
export function CatalogueList({ catalogue, loading, failed, onRetry, selectedId, showBeta }: CatalogueListProps) {
  const [query, setQuery] = useState('');
  const groups = useMemo(() => groupFlows((catalogue ?? []).filter((flow) => matchesFlowSearch(flow, query))), [catalogue, query]);

  return (
    <nav className="ui-card flows-catalogue" aria-labelledby="flows-catalogue-title">
      <h2 id="flows-catalogue-title" className="flows-catalogue__title">{text.title}</h2>
      <SearchInput label={text.search} value={query} onSearch={setQuery} />
      <Link to="/flows" className="flows-catalogue__item flows-catalogue__item--history" aria-current={selectedId ? undefined : 'page'}>
        {flows.history.title}
      </Link>
      {loading && <Spinner label={text.loading} />}
      {failed && <LoadFailed text={text.failed} onRetry={onRetry} />}
      {catalogue && catalogue.length === 0 && <p className="ui-muted">{text.empty}</p>}
      {catalogue && catalogue.length > 0 && groups.length === 0 && <p className="ui-muted" role="status">{text.noMatches}</p>}
      {groups.map(({ group, flows: members }) => (
        <section key={group} className="flows-catalogue__group" aria-label={group}>
          <h3 className="flows-catalogue__group-title">{group}</h3>
          <ul className="flows-catalogue__list">
            {members.map((flow) => (
              <li key={flow.id}>
                <Link
                  to={`/flows/${encodeURIComponent(flow.id)}`}
                  className="flows-catalogue__item"
                  aria-current={flow.id === selectedId ? 'page' : undefined}
                >
                  <span className="flows-catalogue__name">{flow.name}</span>
                  {showBeta && (
                    <span className="ui-chip flows-beta" title={flows.robot.betaLabel}>
                      {flows.robot.beta}
                    </span>
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
