import type { SubscriptionFull } from '#shared/api/billing.ts';
import { formatCredits, formatMoney } from '#shared/billing/index.ts';
import { useKeepCurrentPlanMutation } from '../../api/billing.ts';
import { useToast } from '../../app/hooks.ts';
import { Button } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { formatDay, periodEnd, statusText, statusTone } from './paymentsModel.ts';

const text = billing.status;

interface PlanStatusProps {
  subscription: SubscriptionFull;
  currencies: string | undefined;
  /** The owner, with payments on: may keep the current plan instead of the scheduled one. */
  canAct: boolean;
}

/** 'Estado del plan' (spec §2): what the firm is on, what it has used and what it will pay, and when. */
export function PlanStatus({ subscription, currencies, canAct }: PlanStatusProps) {
  const toast = useToast();
  const [keepCurrentPlan, { isLoading: keeping }] = useKeepCurrentPlanMutation();
  const percentage = Math.max(0, Math.min(100, subscription.slansPercentage));
  const cancelling = subscription.stripeSub?.cancelAt != null;
  const nextPayment = !subscription.trialing && !cancelling ? subscription.nextPaymentDate : null;
  const changeDay = periodEnd(subscription);

  const keep = async () => {
    try {
      await keepCurrentPlan().unwrap();
      toast.success(text.keptPlan);
    } catch (error) {
      toast.error(billingErrorMessage(error));
    }
  };

  return (
    <section className="ui-card ui-section payments-status" aria-labelledby="payments-status-title">
      <h2 id="payments-status-title" className="ui-section__title">{text.heading}</h2>
      <dl className="payments-facts">
        <dt>{text.plan}</dt>
        <dd className="payments-facts__plan">{subscription.name}</dd>
        <dt>{text.state}</dt>
        <dd><span className={`payments-state payments-state--${statusTone(subscription)}`}>{statusText(subscription)}</span></dd>
        {!subscription.trialing && (
          <>
            <dt>{text.nextPayment}</dt>
            <dd>{nextPayment ? formatDay(nextPayment) : text.noNextPayment}</dd>
          </>
        )}
        <dt>{text.usage}</dt>
        <dd>
          <div
            className={`app-usage-bar${subscription.slansPercentage >= 100 ? ' app-usage-bar--full' : ''}`}
            role="progressbar"
            aria-label={text.usage}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(percentage)}
          >
            <span style={{ width: `${percentage}%` }} />
          </div>
          {text.usageValue(formatCredits(subscription.usedSlans, currencies), formatCredits(subscription.usageLimit, currencies))}
          {subscription.excededSlans > 0 && (
            <p className="payments-extra">{text.extra(formatCredits(subscription.excededSlans, currencies), formatMoney(subscription.extraPrice))}</p>
          )}
        </dd>
        <dt>{text.balance}</dt>
        <dd>{formatCredits(subscription.balance, currencies)}</dd>
      </dl>
      {subscription.scheduleSubNextPhaseName !== null && changeDay !== null && (
        <div className="payments-next-phase">
          <p>{text.nextPhase(changeDay, subscription.scheduleSubNextPhaseName)}</p>
          {canAct && (
            <Button variant="secondary" loading={keeping} onClick={() => void keep()}>{text.keepPlan}</Button>
          )}
        </div>
      )}
    </section>
  );
}
