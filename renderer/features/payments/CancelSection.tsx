import { useState } from 'react';
import type { SubscriptionFull } from '#shared/api/billing.ts';
import { useCancelPlanMutation, useResumePlanMutation } from '../../api/billing.ts';
import { useToast } from '../../app/hooks.ts';
import { Button } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { ChoiceDialog } from './ChoiceDialog.tsx';
import { formatDay, periodEnd } from './paymentsModel.ts';

const text = billing.cancel;

/** Cancelling at the period's end (after saying until when the plan lasts), and undoing it before then. */
export function CancelSection({ subscription }: { subscription: SubscriptionFull }) {
  const toast = useToast();
  const [cancelPlan, { isLoading: cancelling }] = useCancelPlanMutation();
  const [resumePlan, { isLoading: resuming }] = useResumePlanMutation();
  const [confirming, setConfirming] = useState(false);
  const endDay = periodEnd(subscription) ?? '';
  const cancelAt = subscription.stripeSub?.cancelAt ?? null;

  const cancel = async () => {
    try {
      const updated = await cancelPlan().unwrap();
      const day = updated.stripeSub?.cancelAt ? formatDay(updated.stripeSub.cancelAt) : endDay;
      toast.success(text.done(day));
    } catch (error) {
      toast.error(billingErrorMessage(error));
    } finally {
      setConfirming(false);
    }
  };

  const resume = async () => {
    try {
      await resumePlan().unwrap();
      toast.success(text.resumed);
    } catch (error) {
      toast.error(billingErrorMessage(error));
    }
  };

  return (
    <section className="ui-card ui-section" aria-labelledby="payments-cancel-title">
      <h2 id="payments-cancel-title" className="ui-section__title">{text.heading}</h2>
      {cancelAt !== null ? (
        <>
          <p>{text.cancelling(formatDay(cancelAt))}</p>
          <div><Button loading={resuming} onClick={() => void resume()}>{text.resume}</Button></div>
        </>
      ) : (
        <div><Button variant="danger" onClick={() => setConfirming(true)}>{text.button}</Button></div>
      )}
      <ChoiceDialog
        open={confirming}
        title={text.title}
        text={text.text(endDay)}
        confirmLabel={text.confirm}
        keepLabel={text.keep}
        tone="danger"
        busy={cancelling}
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
