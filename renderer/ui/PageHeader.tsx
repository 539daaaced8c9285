import type { ReactNode } from 'react';
import { widgets } from '../i18n/es-screens.ts';
import { IconArrowLeft } from './icons.tsx';

export interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  /** When given, a back button is shown before the title. */
  onBack?: () => void;
  backLabel?: string;
  /** Buttons or badges aligned to the right of the title. */
  actions?: ReactNode;
}

export function PageHeader({ title, subtitle, onBack, backLabel = widgets.back, actions }: PageHeaderProps) {
  return (
    <header className="ui-page-header">
      {onBack && (
        <button type="button" className="ui-icon-button ui-page-header__back" onClick={onBack} aria-label={backLabel}>
          <IconArrowLeft size={20} />
        </button>
      )}
      <div className="ui-page-header__text">
        <h1 className="ui-page-header__title">{title}</h1>
        {subtitle && <p className="ui-page-header__subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="ui-page-header__actions">{actions}</div>}
    </header>
  );
}
