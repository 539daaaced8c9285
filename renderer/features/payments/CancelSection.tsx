import { useState } from 'react';
import type { SubscriptionFull } from '#shared/api/billing.ts';
import { useCancelPlanMutation, useResumePlanMutation } from '../../api/billing.ts';
import { useSession, useToast } from '../../app/hooks.ts';
import { Button } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { ChoiceDialog } from './ChoiceDialog.tsx';
import { forgetDroppedChange, readDroppedChange, rememberDroppedChange } from './droppedChange.ts';
import { formatDay, periodEnd } from './paymentsModel.ts';

const text = billing.cancel;

/**
 * Cancelling at the period's end (after saying until when the plan lasts), and undoing it before then.
 * Stripe cannot cancel a subscription while a schedule holds its next plan: the server releases the
 * schedule first, so a scheduled change of plan is dropped. The dialog says so before, and after a
 * resume the page says the change must be chosen again (a resume does not bring it back).
 */
export function CancelSection({ subscription }: { subscription: SubscriptionFull }) {
  const toast = useToast();
  const uid = useSession().user?.uid ?? '';
  const [cancelPlan, { isLoading: cancelling }] = useCancelPlanMutation();
  const [resumePlan, { isLoading: resuming }] = useResumePlanMutation();
  const [confirming, setConfirming] = useState(false);
  const [dropped, setDropped] = useState(() => readDroppedChange(uid));
  const endDay = periodEnd(subscription) ?? '';
  const cancelAt = subscription.stripeSub?.cancelAt ?? null;
  const nextPlan = subscription.scheduleSubNextPhaseName;

  const cancel = async () => {
    try {
      const updated = await cancelPlan().unwrap();
      if (nextPlan !== null) setDropped(rememberDroppedChange(uid, nextPlan));
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
      toast.success(dropped !== null ? text.resumedChangeLost(dropped) : text.resumed);
      forgetDroppedChange();
      setDropped(null);
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
          {dropped !== null && <p className="payments-note">{text.changeDropped(dropped)}</p>}
          <div><Button loading={resuming} onClick={() => void resume()}>{text.resume}</Button></div>
        </>
      ) : (
        <div><Button variant="danger" onClick={() => setConfirming(true)}>{text.button}</Button></div>
      )}
      <ChoiceDialog
        open={confirming}
        title={text.title}
        text={text.text(endDay)}
        warning={nextPlan !== null && endDay !== '' ? text.dropsChange(nextPlan, endDay) : null}
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
