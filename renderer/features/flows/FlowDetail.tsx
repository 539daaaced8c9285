import { useState } from 'react';
import { Link } from 'react-router-dom';
import { flowsPaths, pathFor } from '#shared/api/flows.ts';
import type { FlowSummary } from '#shared/api/flows.ts';
import { formatCredits } from '#shared/billing/money.ts';
import { measureUnitNames } from '#shared/flows/definition.ts';
import type { FlowDefinition, FlowInputDefinition } from '#shared/flows/definition.ts';
import { useFlowQuery } from '../../api/flows.ts';
import { flows } from '../../i18n/es-flows.ts';
import { Button } from '../../ui/index.ts';
import { FlowInstructions } from '../../ui/FlowInstructions.tsx';
import { FlowSchedules } from './FlowSchedules.tsx';
import { LoadSection } from './LoadSection.tsx';

const text = flows.detail;

/** Credits per usage unit: '1 slan por bloque de 100 filas', in the firm's currency names. */
export function usageBadgeText(flow: Pick<FlowSummary, 'usageRatio' | 'usageMeasureUnit'>, currencies?: string): string {
  return flows.robot.usageBadge(formatCredits(flow.usageRatio, currencies), measureUnitNames(flow.usageMeasureUnit).singular);
}

/** Inputs that only the desktop app can offer (native dialogs, local certificates). */
const desktopOnly = (input: FlowInputDefinition) =>
  input.config?.embedded === true || input.template === 'SelectionDialog' || input.template === 'Certificate';

/** Every input the wizard will ask for, section by section, in the order each section shows them. */
export function askedInputs(flow: FlowDefinition): FlowInputDefinition[] {
  return flow.sectionSetup.builder
    .filter((section) => section.hidden !== true)
    .flatMap((section) =>
      section.builder
        .filter((input) => input.hidden !== true)
        .map((input, index) => ({ input, index }))
        .sort((a, b) => (a.input.order ?? a.index) - (b.input.order ?? b.index))
        .map(({ input }) => input),
    );
}

function FlowInputs({ flowId, embedded }: { flowId: string; embedded: boolean }) {
  const query = useFlowQuery(flowId);
  const flow = query.data;
  const inputs = flow ? askedInputs(flow) : [];
  return (
    <LoadSection titleId="flow-inputs-title" title={text.inputsTitle} loadingLabel={text.loading} failedText={text.failed} query={query}>
      {flow && inputs.length === 0 && <p className="ui-muted">{text.noInputs}</p>}
      {inputs.length > 0 && (
        <ul className="flows-inputs">
          {inputs.map((input) => (
            <li key={input.key} className="flows-inputs__item">
              <span className="flows-inputs__label">{input.label}</span>
              <span className={input.required ? 'ui-chip flows-chip--required' : 'ui-chip'}>{input.required ? text.required : text.optional}</span>
              {!embedded && desktopOnly(input) && <span className="ui-chip">{text.desktopOnlyInput}</span>}
              {input.help && <span className="flows-inputs__help">{input.help}</span>}
            </li>
          ))}
        </ul>
      )}
    </LoadSection>
  );
}

export interface FlowDetailProps {
  flow: FlowSummary;
  currencies: string | undefined;
  userEmail: string | undefined;
  embedded: boolean;
}

/** One robot: what it does, what it costs, where it runs, what it asks for, and its schedules. */
export function FlowDetail({ flow, currencies, userEmail, embedded }: FlowDetailProps) {
  const [instructionsOpen, setInstructionsOpen] = useState(false);
  return (
    <>
      <article className="ui-card ui-section" aria-labelledby="flow-title">
        <div className="flows-detail__head">
          <h2 id="flow-title" className="ui-section__title">{flow.name}</h2>
          <span className="ui-chip flows-cost" aria-label={`${flows.robot.usageBadgeLabel}: ${usageBadgeText(flow, currencies)}`}>
            {usageBadgeText(flow, currencies)}
          </span>
        </div>
        {flow.description && <p>{flow.description}</p>}
        <dl className="flows-facts">
          {flow.limits && (
            <div>
              <dt>{flows.robot.limits}</dt>
              <dd>{flow.limits}</dd>
            </div>
          )}
          <div>
            <dt>{flows.robot.runsOnLabel}</dt>
            <dd>{flows.robot.runsOn[flow.runsOn]}</dd>
          </div>
        </dl>
        <div className="flows-actions">
          <Link to={`/launcher/${encodeURIComponent(flow.id)}`} className="ui-button ui-button--primary">
            {text.openLauncher}
          </Link>
          {flow.hasTemplate && (
            <a href={pathFor(flowsPaths.template, { id: flow.id })} download className="ui-button ui-button--secondary">
              {text.downloadTemplate}
            </a>
          )}
          {flow.hasInstructions && (
            <Button variant="secondary" onClick={() => setInstructionsOpen(true)}>
              {flows.robot.instructions}
            </Button>
          )}
        </div>
      </article>
      <FlowInputs flowId={flow.id} embedded={embedded} />
      <FlowSchedules flowId={flow.id} userEmail={userEmail} />
      {instructionsOpen && <FlowInstructions flow={flow} onClose={() => setInstructionsOpen(false)} />}
    </>
  );
}
