import type { ReactNode } from 'react';

export type InfoCardTone = 'neutral' | 'info' | 'success' | 'warning';

export interface InfoCardProps {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  tone?: InfoCardTone;
  /** Buttons or links at the foot of the card. */
  footer?: ReactNode;
}

export function InfoCard({ title, children, icon, tone = 'neutral', footer }: InfoCardProps) {
  return (
    <article className={`ui-card ui-info-card ui-info-card--${tone}`} aria-label={title}>
      <div className="ui-info-card__head">
        {icon && <span className="ui-info-card__icon" aria-hidden="true">{icon}</span>}
        <h3 className="ui-info-card__title">{title}</h3>
      </div>
      {children && <div className="ui-info-card__body">{children}</div>}
      {footer && <div className="ui-info-card__footer">{footer}</div>}
    </article>
  );
}
