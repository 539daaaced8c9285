import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { FlowSummary } from '#shared/api/flows.ts';
import { formatCredits } from '#shared/billing/money.ts';
import { groupFlows, matchesFlowSearch } from '#shared/flows/catalogue.ts';
import { measureUnitNames } from '#shared/flows/definition.ts';
import { useCatalogueQuery } from '../../api/flows.ts';
import { useSession } from '../../app/hooks.ts';
import { roboteka as text } from '../../i18n/es-flows.ts';
import { areas } from '../../i18n/es-screens.ts';
import { Button, EmptyState, IconCatalog, PageHeader, SearchInput, Spinner } from '../../ui/index.ts';
import { FlowInstructions } from '../../ui/FlowInstructions.tsx';
import './roboteka.css';

const ALL_GROUPS = '';

function RobotCard({ flow, currencies, onInstructions }: { flow: FlowSummary; currencies: string | undefined; onInstructions: () => void }) {
  const titleId = `robot-${flow.id}`;
  const cost = text.robot.usageBadge(formatCredits(flow.usageRatio, currencies), measureUnitNames(flow.usageMeasureUnit).singular);
  return (
    <article className="ui-card roboteka-card" aria-labelledby={titleId}>
      <div className="roboteka-card__head">
        <h2 id={titleId} className="roboteka-card__title">{flow.name}</h2>
        <span className="ui-chip">{flow.group}</span>
      </div>
      {flow.description && <p className="roboteka-card__description">{flow.description}</p>}
      <dl className="roboteka-card__facts">
        <div>
          <dt>{text.robot.usageBadgeLabel}</dt>
          <dd>{cost}</dd>
        </div>
        <div>
          <dt>{text.robot.runsOnLabel}</dt>
          <dd>{text.robot.runsOn[flow.runsOn]}</dd>
        </div>
        {flow.limits && (
          <div>
            <dt>{text.robot.limits}</dt>
            <dd>{flow.limits}</dd>
          </div>
        )}
      </dl>
      <div className="roboteka-card__actions">
        <Link to={`/launcher/${encodeURIComponent(flow.id)}`} className="ui-button ui-button--primary" aria-label={text.openLabel(flow.name)}>
          {text.open}
        </Link>
        {flow.hasInstructions && (
          <Button variant="secondary" aria-label={text.instructionsLabel(flow.name)} onClick={onInstructions}>
            {text.robot.instructions}
          </Button>
        )}
      </div>
    </article>
  );
}

/** /roboteka: the firm's robots as a library, with search and a group filter. */
export default function RobotekaPage() {
  const { data: catalogue, isLoading, isError, refetch } = useCatalogueQuery();
  const { user } = useSession();
  const currencies = user?.group.config.currencies;
  const [query, setQuery] = useState('');
  const [group, setGroup] = useState(ALL_GROUPS);
  const [instructionsFor, setInstructionsFor] = useState<FlowSummary | null>(null);

  const groups = useMemo(() => groupFlows(catalogue ?? []).map((entry) => entry.group), [catalogue]);
  const shown = useMemo(
    () =>
      groupFlows((catalogue ?? []).filter((flow) => (group === ALL_GROUPS || flow.group === group) && matchesFlowSearch(flow, query)))
        .flatMap((entry) => entry.flows),
    [catalogue, group, query],
  );

  let body;
  if (isLoading) body = <Spinner size="large" label={text.loading} />;
  else if (isError) {
    body = (
      <div role="alert" className="ui-card ui-section ui-inline-error">
        <p>{text.failed}</p>
        <Button variant="ghost" onClick={() => void refetch()}>{text.robot.retry}</Button>
      </div>
    );
  } else if (catalogue && catalogue.length === 0) body = <EmptyState icon={<IconCatalog />} title={text.empty} />;
  else if (shown.length === 0) body = <p className="ui-card ui-section ui-muted">{text.noMatches}</p>;
  else {
    body = (
      <ul className="roboteka-list" aria-label={text.listLabel}>
        {shown.map((flow) => (
          <li key={flow.id}>
            <RobotCard flow={flow} currencies={currencies} onInstructions={() => setInstructionsFor(flow)} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <main className="ui-page">
      <PageHeader title={areas.roboteka.title} subtitle={text.subtitle} />
      <div className="roboteka-toolbar">
        <SearchInput label={text.search} value={query} onSearch={setQuery} />
        <label className="roboteka-toolbar__group">
          <span>{text.groupFilter}</span>
          <select className="ui-input" value={group} onChange={(event) => setGroup(event.target.value)} disabled={groups.length === 0}>
            <option value={ALL_GROUPS}>{text.allGroups}</option>
            {groups.map((name) => (
              <option key={name} value={name}>{name}</option>
            ))}
          </select>
        </label>
        <span className="ui-muted roboteka-toolbar__count" aria-live="polite">{catalogue && text.count(shown.length)}</span>
      </div>
      {body}
      {instructionsFor && <FlowInstructions flow={instructionsFor} onClose={() => setInstructionsFor(null)} />}
    </main>
  );
}
