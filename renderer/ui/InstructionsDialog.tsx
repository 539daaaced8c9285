import { lazy, Suspense } from 'react';
import { widgets } from '../i18n/es-widgets.ts';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';
import { Spinner } from './Spinner.tsx';

const text = widgets.instructions;

// react-markdown loads with the first instructions opened, not with the screen.
const MarkdownText = lazy(() => import('./Markdown.tsx'));

const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

export interface InstructionsDialogProps {
  flowName: string;
  /** The robot's markdown; undefined while it loads. */
  instructions?: string;
  instructionsURL?: string;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  onClose: () => void;
}

/** 'Ver instrucciones': a robot's markdown (no raw HTML; links open outside the app) and its full guide. */
export function InstructionsDialog({ flowName, instructions, instructionsURL, loading, failed, onRetry, onClose }: InstructionsDialogProps) {
  const spinner = <Spinner label={text.loading} />;
  return (
    <Modal
      open
      size="large"
      title={text.title(flowName)}
      onClose={onClose}
      footer={<Button variant="secondary" onClick={onClose}>{widgets.close}</Button>}
    >
      {loading && spinner}
      {failed && (
        <div role="alert" className="ui-inline-error">
          <p>{text.failed}</p>
          <Button variant="ghost" onClick={onRetry}>{text.retry}</Button>
        </div>
      )}
      {instructions !== undefined && (
        <div className="ui-markdown">
          {instructions.trim() === '' ? (
            <p className="ui-muted">{text.empty}</p>
          ) : (
            <Suspense fallback={spinner}>
              <MarkdownText source={instructions} />
            </Suspense>
          )}
          {instructionsURL && isWebAddress(instructionsURL) && (
            <p>
              <a href={instructionsURL} target="_blank" rel="noopener noreferrer">{text.link}</a>
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
