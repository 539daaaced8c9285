import { useState } from 'react';
import type { Plan, SubscriptionFull } from '#shared/api/billing.ts';
import { creditUnitNames, formatCredits, formatMoney } from '#shared/billing/index.ts';
import { useBillingInfoQuery, useCheckoutSessionMutation, useChoosePlanForNextPeriodMutation, usePlansQuery } from '../../api/billing.ts';
import { useToast } from '../../app/hooks.ts';
import { Button, EmptyState, Spinner } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorCode, billingErrorMessage } from './billingErrors.ts';
import { BillingInfoForm } from './BillingInfoSection.tsx';
import { stripePage } from './stripePage.ts';
import { ChoiceDialog } from './ChoiceDialog.tsx';
import { LoadError } from './LoadError.tsx';
import { hasRunningPaidPlan, periodEnd } from './paymentsModel.ts';

const text = billing.plans;

interface PlansSectionProps {
  subscription: SubscriptionFull;
  currencies: string | undefined;
  /** The owner, with payments on: may subscribe or change plan. */
  canAct: boolean;
}

/**
 * 'Planes': one card per plan. Without a running paid plan, 'Contratar' goes to Stripe's checkout (first
 * asking for the billing info when the firm has none: the first invoice must carry its name and NIF);
 * with one, 'Cambiar a este plan' schedules the plan for the next period after a confirmation.
 */
export function PlansSection({ subscription, currencies, canAct }: PlansSectionProps) {
  const toast = useToast();
  const plans = usePlansQuery();
  const [checkout] = useCheckoutSessionMutation();
  const [choosePlan, { isLoading: changing }] = useChoosePlanForNextPeriodMutation();
  const [leaving, setLeaving] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Plan | null>(null);
  const billingInfo = useBillingInfoQuery(undefined, { skip: !canAct });
  const [askingInfo, setAskingInfo] = useState<Plan | null>(null);
  const running = hasRunningPaidPlan(subscription);
  const unit = creditUnitNames(currencies).singular;
  const changeDay = periodEnd(subscription) ?? '';

  const subscribe = async (plan: Plan, infoSaved = false) => {
    // No billing info yet: it is asked for first, then the checkout goes on.
    if (!infoSaved && billingInfo.isSuccess && billingInfo.data === null) {
      setAskingInfo(plan);
      return;
    }
    setLeaving(plan.ref);
    try {
      const { url } = await checkout({ planRef: plan.ref }).unwrap();
      // Stripe's hosted page; it comes back to /payments?pago=ok or ?pago=cancelado.
      stripePage.open(url);
    } catch (error) {
      setLeaving(null);
      if (billingErrorCode(error) === 'BILLING_INFO_REQUIRED') setAskingInfo(plan);
      else toast.error(billingErrorMessage(error));
    }
  };

  const change = async (plan: Plan) => {
    try {
      await choosePlan({ planRef: plan.ref }).unwrap();
      toast.success(text.changed(plan.name));
    } catch (error) {
      toast.error(billingErrorMessage(error));
    } finally {
      setConfirming(null);
    }
  };

  const action = (plan: Plan) => {
    if (!canAct) return null;
    if (!running)
      return (
        <Button loading={leaving === plan.ref} disabled={leaving !== null} onClick={() => void subscribe(plan)}>
          {text.subscribe}
        </Button>
      );
    if (plan.current || plan.ref === subscription.scheduleSubNextPhaseRef) return null;
    return (
      <Button variant="secondary" onClick={() => setConfirming(plan)}>{text.change}</Button>
    );
  };

  let body;
  if (plans.isLoading) body = <div className="payments-placeholder"><Spinner /></div>;
  else if (plans.isError) body = <LoadError error={plans.error} fallback={text.loadFailed} onRetry={() => void plans.refetch()} />;
  else if (!plans.data || plans.data.length === 0) body = <EmptyState title={text.none} headingLevel={3} />;
  else
    body = (
      <ul className="payments-plans" aria-label={text.listLabel}>
        {plans.data.map((plan) => (
          <li key={plan.ref} className={`payments-plan${plan.current ? ' payments-plan--current' : ''}`} aria-labelledby={`plan-${plan.ref}`}>
            <h3 id={`plan-${plan.ref}`} className="payments-plan__name">{plan.name}</h3>
            {plan.current && <span className="ui-chip ui-chip--success">{text.current}</span>}
            <p className="payments-plan__price">{text.price(formatMoney(plan.basePrice))}</p>
            <p>{text.included(formatCredits(plan.usageLimit, currencies))}</p>
            <p>{text.extra(formatMoney(plan.extraUsagePrice), unit)}</p>
            <div className="payments-plan__action">{action(plan)}</div>
          </li>
        ))}
      </ul>
    );

  return (
    <section className="ui-card ui-section" aria-labelledby="payments-plans-title">
      <h2 id="payments-plans-title" className="ui-section__title">{text.heading}</h2>
      {body}
      <ChoiceDialog
        open={confirming !== null}
        title={confirming ? text.changeTitle(confirming.name) : ''}
        text={text.changeText(changeDay)}
        confirmLabel={text.changeConfirm}
        keepLabel={billing.cancel.keep}
        busy={changing}
        onConfirm={() => confirming && void change(confirming)}
        onClose={() => setConfirming(null)}
      />
      <Modal open={askingInfo !== null} size="medium" title={billing.billingInfo.heading} onClose={() => setAskingInfo(null)}>
        <p className="payments-note">{text.infoFirst}</p>
        {askingInfo !== null && (
          <BillingInfoForm
            initial={billingInfo.data ?? null}
            canAct
            submitLabel={text.infoContinue}
            onSaved={() => {
              const plan = askingInfo;
              setAskingInfo(null);
              void subscribe(plan, true);
            }}
          />
        )}
      </Modal>
    </section>
  );
}
