import { lazy, Suspense } from 'react';
import { useFlowQuery } from '../../api/flows.ts';
import { flows } from '../../i18n/es-flows.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';

const text = flows.robot;

// react-markdown loads with the first instructions opened, not with the screen.
const MarkdownText = lazy(() => import('../../app/shell/markdown.tsx'));

const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

export interface InstructionsDialogProps {
  flowId: string;
  flowName: string;
  onClose: () => void;
}

/** 'Ver instrucciones': the robot's markdown (no raw HTML; links open outside the app). */
export function InstructionsDialog({ flowId, flowName, onClose }: InstructionsDialogProps) {
  const { data: flow, isLoading, isError, refetch } = useFlowQuery(flowId);
  const loading = <Spinner label={text.instructionsLoading} />;
  return (
    <Modal
      open
      size="large"
      title={text.instructionsTitle(flowName)}
      onClose={onClose}
      footer={<Button variant="secondary" onClick={onClose}>{text.close}</Button>}
    >
      {isLoading && loading}
      {isError && (
        <div role="alert" className="flows-inline-error">
          <p>{text.instructionsFailed}</p>
          <Button variant="ghost" onClick={() => void refetch()}>{text.retry}</Button>
        </div>
      )}
      {flow && (
        <div className="flows-markdown">
          {flow.instructions.trim() === '' ? (
            <p className="ui-muted">{text.instructionsEmpty}</p>
          ) : (
            <Suspense fallback={loading}>
              <MarkdownText source={flow.instructions} />
            </Suspense>
          )}
          {flow.instructionsURL && isWebAddress(flow.instructionsURL) && (
            <p>
              <a href={flow.instructionsURL} target="_blank" rel="noopener noreferrer">{text.instructionsLink}</a>
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
