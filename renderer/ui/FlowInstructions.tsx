import type { FlowSummary } from '#shared/api/flows.ts';
import { useFlowQuery } from '../api/flows.ts';
import { InstructionsDialog } from './InstructionsDialog.tsx';

/** 'Ver instrucciones' for one robot: its definition is loaded when the dialog opens. */
export function FlowInstructions({ flow, onClose }: { flow: Pick<FlowSummary, 'id' | 'name'>; onClose: () => void }) {
  const { data, isLoading, isError, refetch } = useFlowQuery(flow.id);
  return (
    <InstructionsDialog
      flowName={flow.name}
      instructions={data?.instructions}
      instructionsURL={data?.instructionsURL}
      loading={isLoading}
      failed={isError}
      onRetry={() => void refetch()}
      onClose={onClose}
    />
  );
}
