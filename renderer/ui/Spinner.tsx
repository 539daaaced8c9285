import { widgets } from '../i18n/es-widgets.ts';

export interface SpinnerProps {
  size?: 'small' | 'medium' | 'large';
  /** Text read by screen readers; the default says "Cargando…". */
  label?: string;
  /** Inside a control that already announces its busy state, the spinner is only decoration. */
  decorative?: boolean;
}

export function Spinner({ size = 'medium', label = widgets.loading, decorative = false }: SpinnerProps) {
  if (decorative) return <span className={`ui-spinner ui-spinner--${size}`} aria-hidden="true" />;
  return (
    <span role="status" className="ui-spinner-wrap">
      <span className={`ui-spinner ui-spinner--${size}`} aria-hidden="true" />
      <span className="ui-visually-hidden">{label}</span>
    </span>
  );
}

export interface LoadingImageProps {
  /** A caption shown under the spinner, e.g. what is being loaded. */
  caption?: string;
}

/** A centred block for a whole area that is still loading. */
export function LoadingImage({ caption }: LoadingImageProps) {
  return (
    <div className="ui-loading-image">
      <Spinner size="large" label={caption ?? widgets.loading} />
      {caption && <p className="ui-loading-image__caption" aria-hidden="true">{caption}</p>}
    </div>
  );
}
