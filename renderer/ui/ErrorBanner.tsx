import { widgets } from '../i18n/es-screens.ts';
import { IconClose } from './icons.tsx';

export interface ErrorData {
  hasError?: boolean;
  msg?: string;
}

export interface ErrorBannerProps {
  /** The banner shows only when data says it has an error and carries a message (spec §2). */
  data: ErrorData | null | undefined;
  onDismiss?: () => void;
  dismissLabel?: string;
}

export function ErrorBanner({ data, onDismiss, dismissLabel = widgets.close }: ErrorBannerProps) {
  if (!data?.hasError || !data.msg) return null;
  return (
    <div role="alert" className="ui-error-banner">
      <span className="ui-error-banner__icon" aria-hidden="true">!</span>
      <p className="ui-error-banner__message">{data.msg}</p>
      {onDismiss && (
        <button type="button" className="ui-icon-button" onClick={onDismiss} aria-label={dismissLabel}>
          <IconClose size={16} />
        </button>
      )}
    </div>
  );
}
