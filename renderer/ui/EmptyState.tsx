import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  text?: ReactNode;
  /** An icon from ./icons.tsx; it is decorative. */
  icon?: ReactNode;
  /** An optional call to action, usually a Button. */
  action?: ReactNode;
  /** Heading level of the title, so it fits the page outline (h2 under a page title by default). */
  headingLevel?: 2 | 3;
}

export function EmptyState({ title, text, icon, action, headingLevel = 2 }: EmptyStateProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="ui-empty-state" aria-label={title}>
      {icon && <div className="ui-empty-state__icon" aria-hidden="true">{icon}</div>}
      <Heading className="ui-empty-state__title">{title}</Heading>
      {text && <p className="ui-empty-state__text">{text}</p>}
      {action && <div className="ui-empty-state__action">{action}</div>}
    </section>
  );
}
