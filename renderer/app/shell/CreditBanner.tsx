import { useNavigate } from 'react-router-dom';
import { PAYMENT_FAILED_BANNER } from '#shared/api/billing.ts';
import { usageBanner } from '#shared/billing/index.ts';
import { useSubscriptionUsageQuery } from '../../api/account.ts';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';
import { billing } from '../../i18n/es-billing.ts';

/**
 * The bottom banner, one at a time: a failed payment first (past_due is not active: no launches until it is paid), else
 * the credits running low: a warning from 90 % of the limit, red from 100 % (spec §9).
 */
export function CreditBanner() {
  const navigate = useNavigate();
  const { data: usage } = useSubscriptionUsageQuery();
  if (!usage) return null;
  if (usage.paymentFailed)
    return (
      <div className="app-credit-banner app-credit-banner--exceeded" role="alert">
        <span>{PAYMENT_FAILED_BANNER}</span>
        <Button variant="danger" onClick={() => navigate('/payments')}>
          {billing.failed.seePayments}
        </Button>
      </div>
    );
  const level = usageBanner(usage.slansPercentage);
  if (level === 'none') return null;
  return (
    <div className={`app-credit-banner app-credit-banner--${level}`} role={level === 'exceeded' ? 'alert' : 'status'}>
      <span>{level === 'exceeded' ? es.creditBanner.exceeded : es.creditBanner.warning(Math.floor(usage.slansPercentage))}</span>
      <Button variant={level === 'exceeded' ? 'danger' : 'secondary'} onClick={() => navigate('/payments')}>
        {es.common.seePlans}
      </Button>
    </div>
  );
}
