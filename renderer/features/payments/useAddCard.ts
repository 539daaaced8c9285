import { useState } from 'react';
import type { PaymentMethod } from '#shared/api/billing.ts';
import { useSetupIntentMutation } from '../../api/billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { stripePage } from './stripePage.ts';

/** Where the cards known before leaving for Stripe wait, so the return can tell which one is new. */
export const CARDS_BEFORE_KEY = 'autoasesor.payments.cardsBefore';

/** The card ids remembered before the setup page, or null when this tab did not start it. */
export function rememberedCardIds(): string[] | null {
  try {
    const stored = sessionStorage.getItem(CARDS_BEFORE_KEY);
    const parsed: unknown = stored === null ? null : JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : null;
  } catch {
    return null;
  }
}

/** 'Añadir tarjeta' and 'Actualizar tarjeta': Stripe's hosted setup page, which comes back with ?tarjeta=ok|cancelada. */
export function useAddCard(cards: readonly PaymentMethod[] | undefined) {
  const [setupIntent] = useSetupIntentMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await setupIntent().unwrap();
      sessionStorage.setItem(CARDS_BEFORE_KEY, JSON.stringify((cards ?? []).map((card) => card.id)));
      stripePage.open(url);
      // Busy until the browser leaves: a second click would open a second setup.
    } catch (failure) {
      setError(billingErrorMessage(failure));
      setBusy(false);
    }
  };

  return { start, busy, error };
}
