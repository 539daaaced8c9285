import { Button, ErrorBanner } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';

/** A section that could not load: the server's reason (or ours) and a way to try again. */
export function LoadError({ error, fallback, onRetry }: { error: unknown; fallback: string; onRetry: () => void }) {
  return (
    <div className="payments-load-error">
      <ErrorBanner data={{ hasError: true, msg: billingErrorMessage(error, fallback) }} />
      <Button variant="secondary" onClick={onRetry}>{billing.retry}</Button>
    </div>
  );
}
