import { Navigate, useParams } from 'react-router-dom';
import { useCatalogueQuery } from '../../api/flows.ts';
import { useEmbedded, useSession } from '../../app/hooks.ts';
import { flows } from '../../i18n/es-flows.ts';
import { areas } from '../../i18n/es-screens.ts';
import { PageHeader, Spinner } from '../../ui/index.ts';
import { CatalogueList } from './CatalogueList.tsx';
import { FlowDetail } from './FlowDetail.tsx';
import { RunHistory } from './RunHistory.tsx';
import './flows.css';

/**
 * /flows/:id? (spec §2 Flows screen): the robots by group on the left; on the right the selected
 * robot, or the run history when none is selected. An id that names no robot is cleared.
 */
export default function FlowsPage() {
  const { id } = useParams();
  const embedded = useEmbedded();
  const { user } = useSession();
  const currencies = user?.group.config.currencies;
  const catalogue = useCatalogueQuery();
  const selected = id === undefined ? undefined : catalogue.data?.find((flow) => flow.id === id);

  if (id !== undefined && catalogue.data && !selected) return <Navigate to="/flows" replace />;

  let main;
  if (id === undefined) main = <RunHistory currencies={currencies} robots={catalogue.data} />;
  else if (selected) main = <FlowDetail key={selected.id} flow={selected} currencies={currencies} userEmail={user?.email} embedded={embedded} />;
  // The catalogue panel already says it failed, with its retry button.
  else if (catalogue.isError) main = <p className="ui-card ui-section ui-muted">{flows.catalogue.failed}</p>;
  else main = <Spinner label={flows.detail.loading} />;

  return (
    <main className="ui-page">
      <PageHeader title={areas.flows.title} subtitle={areas.flows.summary} />
      <div className="flows-layout">
        <CatalogueList
          catalogue={catalogue.data}
          loading={catalogue.isLoading}
          failed={catalogue.isError}
          onRetry={() => void catalogue.refetch()}
          selectedId={selected?.id}
          showBeta={!embedded}
        />
        <div className="flows-layout__main">{main}</div>
      </div>
    </main>
  );
}
