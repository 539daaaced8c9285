import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { billingApi, usePaymentMethodsQuery, useSubscriptionFullQuery } from '../../api/billing.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { billing } from '../../i18n/es-billing.ts';
import { CARDS_BEFORE_KEY, rememberedCardIds } from './useAddCard.ts';

/** Stripe's webhook usually lands within seconds; the page asks every 2 s for a minute at most. */
export const CONFIRM_POLL_MS = 2_000;
export const CONFIRM_LIMIT_MS = 60_000;

type Return = 'payment' | 'paymentCancelled' | 'card' | 'cardCancelled' | null;

function readReturn(params: URLSearchParams): Return {
  const payment = params.get('pago');
  if (payment === 'ok') return 'payment';
  if (payment === 'cancelado') return 'paymentCancelled';
  const card = params.get('tarjeta');
  if (card === 'ok') return 'card';
  if (card === 'cancelada') return 'cardCancelled';
  return null;
}

export interface ReturnNotice {
  text: string;
  tone: 'info' | 'success' | 'warning';
  busy: boolean;
}

/**
 * Coming back from Stripe's hosted pages (?pago=ok|cancelado, ?tarjeta=ok|cancelada): the query is
 * read once and cleaned, and an 'ok' waits for the webhook's effect (the plan active, a new card),
 * asking again every 2 s for up to a minute before saying it may take a few minutes.
 */
export function useStripeReturn(paymentsEnabled: boolean): ReturnNotice | null {
  const [params, setParams] = useSearchParams();
  const [kind] = useState<Return>(() => readReturn(params));
  const [expired, setExpired] = useState(false);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!params.has('pago') && !params.has('tarjeta')) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        // Stripe's checkout also appends its session id, of no use to the page.
        for (const key of ['pago', 'tarjeta', 'session_id']) next.delete(key);
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);

  const waitingPayment = kind === 'payment';
  const waitingCard = kind === 'card' && paymentsEnabled;
  const subscription = useSubscriptionFullQuery();
  const cards = usePaymentMethodsQuery(undefined, { skip: !waitingCard });

  // The cards before the setup page: remembered when this tab left for Stripe, else the first list seen here.
  const before = useRef<string[] | null>(kind === 'card' ? rememberedCardIds() : null);
  if (waitingCard && before.current === null && cards.data) before.current = cards.data.map((card) => card.id);
  const known = before.current;

  const paid = subscription.data?.stripeSub?.status === 'active';
  const cardAdded = known !== null && (cards.data ?? []).some((card) => !known.includes(card.id));
  const done = waitingPayment ? paid : waitingCard ? cardAdded : false;
  const polling = (waitingPayment || waitingCard) && !done && !expired;

  useSubscriptionFullQuery(undefined, { skip: !waitingPayment || !polling, pollingInterval: CONFIRM_POLL_MS });
  usePaymentMethodsQuery(undefined, { skip: !waitingCard || !polling, pollingInterval: CONFIRM_POLL_MS });

  useEffect(() => {
    if (!waitingPayment && !waitingCard) return undefined;
    const timer = setTimeout(() => setExpired(true), CONFIRM_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [waitingPayment, waitingCard]);

  useEffect(() => {
    if (!done) return;
    if (waitingCard) sessionStorage.removeItem(CARDS_BEFORE_KEY);
    // The shell's views (top bar, banners) read the short subscription, and the plans say which is current:
    // both changed with the payment, as did the invoices.
    if (waitingPayment) dispatch(billingApi.util.invalidateTags(['Subscription', 'Plans', 'Invoices', 'PaymentMethods']));
  }, [done, waitingCard, waitingPayment, dispatch]);

  const text = billing.returning;
  switch (kind) {
    case null: return null;
    case 'paymentCancelled': return { text: text.cancelled, tone: 'warning', busy: false };
    case 'cardCancelled': return { text: text.cardCancelled, tone: 'warning', busy: false };
    case 'payment':
      if (done) return { text: text.active(subscription.data?.name ?? ''), tone: 'success', busy: false };
      return expired ? { text: text.slow, tone: 'info', busy: false } : { text: text.confirming, tone: 'info', busy: true };
    case 'card':
      if (!paymentsEnabled) return null;
      if (done) return { text: text.cardAdded, tone: 'success', busy: false };
      return expired ? { text: text.cardSlow, tone: 'info', busy: false } : { text: text.cardConfirming, tone: 'info', busy: true };
  }
}
