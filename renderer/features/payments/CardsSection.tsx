import { useState } from 'react';
import type { PaymentMethod } from '#shared/api/billing.ts';
import { useMakeDefaultPaymentMethodMutation, usePaymentMethodsQuery, useRemovePaymentMethodMutation } from '../../api/billing.ts';
import { useToast } from '../../app/hooks.ts';
import { Button, EmptyState, ErrorBanner, Spinner } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { ChoiceDialog } from './ChoiceDialog.tsx';
import { LoadError } from './LoadError.tsx';
import { useAddCard } from './useAddCard.ts';

const text = billing.cards;

/** Stripe names brands in lower case ('visa', 'mastercard'); people read 'Visa'. */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/** 'Tarjetas': the firm's saved cards; the owner adds one on Stripe's page, picks the default or removes one. */
export function CardsSection({ canAct }: { canAct: boolean }) {
  const toast = useToast();
  const cards = usePaymentMethodsQuery();
  const addCard = useAddCard(cards.data);
  const [removeCard, { isLoading: removing }] = useRemovePaymentMethodMutation();
  const [makeDefault, { isLoading: switching }] = useMakeDefaultPaymentMethodMutation();
  const [confirming, setConfirming] = useState<PaymentMethod | null>(null);
  const [error, setError] = useState<string | null>(null);

  const remove = async (card: PaymentMethod) => {
    setError(null);
    try {
      await removeCard(card.id).unwrap();
      toast.success(text.removed);
    } catch (failure) {
      // A 409 LAST_CARD says why in Spanish; it stays on screen next to the cards.
      setError(billingErrorMessage(failure));
    } finally {
      setConfirming(null);
    }
  };

  const chooseDefault = async (card: PaymentMethod) => {
    setError(null);
    try {
      await makeDefault(card.id).unwrap();
      toast.success(text.madeDefault);
    } catch (failure) {
      setError(billingErrorMessage(failure));
    }
  };

  let body;
  if (cards.isLoading) body = <div className="payments-placeholder"><Spinner /></div>;
  else if (cards.isError) body = <LoadError error={cards.error} fallback={text.loadFailed} onRetry={() => void cards.refetch()} />;
  else if (!cards.data || cards.data.length === 0) body = <EmptyState title={text.empty} headingLevel={3} />;
  else
    body = (
      <ul className="payments-cards" aria-label={text.listLabel}>
        {cards.data.map((card) => (
          <li key={card.id} className="payments-card">
            <span className="payments-card__brand">{brandName(card.brand)}</span>
            <span className="payments-card__number">{text.number(card.last4)}</span>
            <span className="payments-card__expiry">{text.expires(card.expMonth, card.expYear)}</span>
            {card.isDefault && <span className="ui-chip ui-chip--notice">{text.isDefault}</span>}
            {canAct && (
              <span className="payments-card__actions">
                {!card.isDefault && (
                  <Button variant="ghost" disabled={switching} aria-label={text.makeDefaultLabel(brandName(card.brand), card.last4)} onClick={() => void chooseDefault(card)}>
                    {text.makeDefault}
                  </Button>
                )}
                <Button variant="ghost" aria-label={text.removeLabel(brandName(card.brand), card.last4)} onClick={() => setConfirming(card)}>
                  {text.remove}
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
    );

  const shownError = error ?? addCard.error;
  return (
    <section className="ui-card ui-section" aria-labelledby="payments-cards-title">
      <div className="ui-section__head">
        <h2 id="payments-cards-title" className="ui-section__title">{text.heading}</h2>
        {canAct && <Button variant="secondary" loading={addCard.busy} onClick={() => void addCard.start()}>{text.add}</Button>}
      </div>
      <ErrorBanner data={{ hasError: shownError !== null, msg: shownError ?? undefined }} onDismiss={() => setError(null)} />
      {body}
      <ChoiceDialog
        open={confirming !== null}
        title={text.removeTitle}
        text={confirming ? text.removeText(brandName(confirming.brand), confirming.last4) : ''}
        confirmLabel={text.remove}
        keepLabel={billing.cancel.keep}
        tone="danger"
        busy={removing}
        onConfirm={() => confirming && void remove(confirming)}
        onClose={() => setConfirming(null)}
      />
    </section>
  );
}
