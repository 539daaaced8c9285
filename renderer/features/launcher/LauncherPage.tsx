import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { formatCredits } from '#shared/billing/index.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { useFlowQuery } from '../../api/flows.ts';
import { useSession } from '../../app/hooks.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { Button } from '../../ui/Button.tsx';
import { EmptyState, IconRobot, PageHeader, Spinner } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { asHttpError } from '../../ui/forms.ts';
import { externalUrl, unitMeasure } from './launcherModel.ts';
import { MarkdownBlock } from './Sections.tsx';
import { Wizard } from './Wizard.tsx';
import './launcher.css';

/** The flow launcher (/launcher/:id): the flow's header and its step-by-step wizard. */
export default function LauncherPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { user } = useSession();
  const currencies = user?.group.config.currencies;
  const { data: flow, error, isLoading } = useFlowQuery(id, { skip: id === '' });

  // Opened straight from a link there is no previous page in the app: go to the robots instead.
  const leave = () => (location.key === 'default' ? navigate(id ? `/flows/${id}` : '/flows') : navigate(-1));

  // Every screen has its h1: the launcher's own name until the robot's is known.
  if (isLoading) {
    return (
      <main className="ui-page launcher">
        <PageHeader title={text.pageTitle} onBack={leave} />
        <Spinner size="large" label={text.loadingFlow} />
      </main>
    );
  }
  if (!flow) {
    const missing = id === '' || asHttpError(error)?.status === 404;
    return (
      <main className="ui-page launcher">
        <PageHeader title={text.pageTitle} onBack={leave} />
        <EmptyState
          icon={<IconRobot />}
          title={missing ? text.notFound : text.loadFailed}
          action={<Link className="ui-button ui-button--primary" to="/flows"><span className="ui-button__label">{text.backToFlows}</span></Link>}
        />
      </main>
    );
  }

  return (
    <main className="ui-page launcher">
      <PageHeader
        title={flow.name}
        subtitle={flow.limits ?? flow.description}
        onBack={leave}
        actions={<HeaderActions flow={flow} currencies={currencies} />}
      />
      {/* A new flow (another id) starts a fresh wizard. */}
      <Wizard key={flow.id} flow={flow} currencies={currencies} onLeave={leave} />
    </main>
  );
}

function HeaderActions({ flow, currencies }: { flow: FlowDefinition; currencies?: string }) {
  const [instructionsOpen, setInstructionsOpen] = useState(false);
  const unit = unitMeasure(flow.usageMeasureUnit);
  const hasInstructions = flow.instructions.trim() !== '';
  const instructionsUrl = externalUrl(flow.instructionsURL);
  return (
    <div className="launcher-header-actions">
      <span className="ui-chip launcher-badge" title={text.usageBadgeLabel}>
        {text.usageBadge(formatCredits(flow.usageRatio, currencies), unit.singular)}
      </span>
      {hasInstructions && (
        <Button variant="secondary" onClick={() => setInstructionsOpen(true)}>{text.buttons.instructions}</Button>
      )}
      {!hasInstructions && instructionsUrl && (
        <a className="ui-button ui-button--secondary" href={instructionsUrl} target="_blank" rel="noopener noreferrer">
          <span className="ui-button__label">{text.buttons.instructions}</span>
        </a>
      )}
      <Modal open={instructionsOpen} title={text.instructionsTitle} onClose={() => setInstructionsOpen(false)} size="large">
        <MarkdownBlock source={flow.instructions} />
        {instructionsUrl && (
          <p>
            <a href={instructionsUrl} target="_blank" rel="noopener noreferrer">{text.instructionsLink}</a>
          </p>
        )}
      </Modal>
    </div>
  );
}
