import { useNavigate } from 'react-router-dom';
import { PAYMENT_FAILED_BANNER } from '#shared/api/billing.ts';
import { creditUnitNames, formatUnitPrice, usageBanner } from '#shared/billing/index.ts';
import { useSubscriptionUsageQuery } from '../../api/account.ts';
import { Button } from '../../ui/Button.tsx';
import { IconClose } from '../../ui/icons.tsx';
import { es } from '../../i18n/es.ts';
import { billing } from '../../i18n/es-billing.ts';
import { useAppDispatch, useAppSelector, useSession } from '../hooks.ts';
import { creditBannerHidden } from '../ui.ts';
import { readHiddenCreditBanner, rememberHiddenCreditBanner } from './creditBannerDismissal.ts';
import './CreditBanner.css';

const text = billing.banner;

/**
 * The bottom banner, one at a time: a failed payment first (past_due is not active: no launches until
 * it is paid), else the credits running low: a warning from 90 % of the limit, red from 100 % when no
 * more can be used (a trial), and only a one-line notice with the € per slan when the plan goes on
 * past its limit on extra usage (spec §9). The credits' banner can be hidden for the sign-in (a reload
 * keeps it hidden); it comes back when its state changes (warning → exhausted) or on the next sign-in.
 */
export function CreditBanner() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const user = useSession().user;
  const uid = user?.uid ?? '';
  const currencies = user?.group.config.currencies;
  const hidden = useAppSelector((state) => state.ui.creditBannerHidden) ?? readHiddenCreditBanner(uid);
  const { data: usage } = useSubscriptionUsageQuery();
  if (!usage) return null;
  if (usage.paymentFailed)
    return (
      <div className="app-credit-banner app-credit-banner--exceeded" role="alert">
        <span className="app-credit-banner__text">{PAYMENT_FAILED_BANNER}</span>
        <Button variant="danger" onClick={() => navigate('/payments')}>
          {billing.failed.seePayments}
        </Button>
      </div>
    );
  const level = usageBanner(usage.slansPercentage);
  if (level === 'none') return null;
  const extraPrice = usage.extraSlanPrice ?? null;
  // Past the limit on a plan that bills extra usage nothing is blocked: a notice, not an alert.
  const state = level === 'exceeded' && extraPrice !== null ? 'extra' : level;
  if (hidden === state) return null;

  const message =
    state === 'extra' && extraPrice !== null
      ? text.extra(`${formatUnitPrice(extraPrice)} por ${creditUnitNames(currencies).singular}`)
      : state === 'exceeded'
        ? text.exhausted
        : es.creditBanner.warning(Math.floor(usage.slansPercentage));
  const tone = state === 'exceeded' ? 'exceeded' : state === 'extra' ? 'notice' : 'warning';
  const hide = () => {
    rememberHiddenCreditBanner(uid, state);
    dispatch(creditBannerHidden(state));
  };
  return (
    <div className={`app-credit-banner app-credit-banner--${tone} app-credit-banner--compact`} role={state === 'exceeded' ? 'alert' : 'status'}>
      <span className="app-credit-banner__text">{message}</span>
      <div className="app-credit-banner__actions">
        {state === 'extra' ? (
          <Button variant="ghost" onClick={() => navigate('/payments/consumo')}>{text.seeUsage}</Button>
        ) : (
          <Button variant={state === 'exceeded' ? 'danger' : 'secondary'} onClick={() => navigate('/payments')}>
            {es.common.seePlans}
          </Button>
        )}
        <button type="button" className="app-credit-banner__close" aria-label={text.hide} title={text.hide} onClick={hide}>
          <IconClose size={16} />
        </button>
      </div>
    </div>
  );
}
