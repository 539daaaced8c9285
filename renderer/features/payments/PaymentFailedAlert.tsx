import { PAYMENT_FAILED_BANNER } from '#shared/api/billing.ts';
import { usePaymentMethodsQuery } from '../../api/billing.ts';
import { Button, IconAlert } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { useAddCard } from './useAddCard.ts';

/** Stripe could not charge the last invoice: say so first, with the one action that fixes it. */
export function PaymentFailedAlert({ canAct }: { canAct: boolean }) {
  const cards = usePaymentMethodsQuery(undefined, { skip: !canAct });
  const addCard = useAddCard(cards.data);
  return (
    <div role="alert" className="payments-alert">
      <IconAlert size={20} />
      <p>{PAYMENT_FAILED_BANNER}</p>
      {canAct && (
        <Button variant="danger" loading={addCard.busy} onClick={() => void addCard.start()}>{billing.failed.updateCard}</Button>
      )}
      {addCard.error !== null && <p className="payments-alert__error">{addCard.error}</p>}
    </div>
  );
}
