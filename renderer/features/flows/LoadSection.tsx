import type { ReactNode } from 'react';
import { flows } from '../../i18n/es-flows.ts';
import { Button, Spinner } from '../../ui/index.ts';

/** What failed to load, with 'Reintentar'. */
export function LoadFailed({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <div role="alert" className="ui-inline-error">
      <p>{text}</p>
      <Button variant="ghost" onClick={onRetry}>{flows.robot.retry}</Button>
    </div>
  );
}

export interface LoadSectionProps {
  titleId: string;
  title: string;
  loadingLabel: string;
  failedText: string;
  /** The RTK Query result the section shows. */
  query: { isLoading: boolean; isError: boolean; refetch: () => unknown };
  /** What was loaded (or the empty text). */
  children: ReactNode;
}

/** A card section fed by one query: its title, a spinner while it loads, the failure with a retry, then its content. */
export function LoadSection({ titleId, title, loadingLabel, failedText, query, children }: LoadSectionProps) {
  return (
    <section className="ui-card ui-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="ui-section__title">{title}</h3>
      {query.isLoading && <Spinner label={loadingLabel} />}
      {query.isError && <LoadFailed text={failedText} onRetry={() => void query.refetch()} />}
      {children}
    </section>
  );
}
