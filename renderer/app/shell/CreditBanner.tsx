import { useNavigate } from 'react-router-dom';
import { usageBanner } from '#shared/billing/index.ts';
import { useSubscriptionUsageQuery } from '../../api/account.ts';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

/** The bottom banner when credits run low: a warning from 90 % of the limit, red from 100 % (spec §9). */
export function CreditBanner() {
  const navigate = useNavigate();
  const { data: usage } = useSubscriptionUsageQuery();
  if (!usage) return null;
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
