import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { LAST_CARD_MESSAGE, PAYMENT_METHOD_NOT_FOUND_MESSAGE, type PaymentMethod } from '#shared/api/billing.ts';
import { HttpError } from '../../http/errors.ts';
import { atStripe } from './stripe-errors.ts';
import type { StripeClient } from './stripe-client.ts';
import { idOf } from './stripe-ids.ts';

/** The firm's Stripe customer and, while a paid plan runs, its subscription. */
export interface CardOwner {
  customerId: string;
  subscriptionId: string | null;
}

interface Wallet {
  cards: Stripe.PaymentMethod[];
  defaultId: string | null;
}

/**
 * The customer's cards and which one pays. The subscription's default_payment_method wins over the
 * customer's (Checkout sets the card there), so it is read first.
 */
async function wallet(stripe: StripeClient, log: FastifyBaseLogger, owner: CardOwner): Promise<Wallet> {
  return atStripe(log, 'leer las tarjetas', async () => {
    const [list, customer, subscription] = await Promise.all([
      stripe.customers.listPaymentMethods(owner.customerId, { type: 'card', limit: 100 }),
      stripe.customers.retrieve(owner.customerId),
      owner.subscriptionId ? stripe.subscriptions.retrieve(owner.subscriptionId) : null,
    ]);
    const customerDefault = customer.deleted ? null : idOf(customer.invoice_settings.default_payment_method);
    return { cards: list.data, defaultId: idOf(subscription?.default_payment_method) ?? customerDefault };
  });
}

function toPaymentMethod(card: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod {
  return {
    id: card.id,
    brand: card.card?.brand ?? 'card',
    last4: card.card?.last4 ?? '',
    expMonth: card.card?.exp_month ?? 0,
    expYear: card.card?.exp_year ?? 0,
    isDefault: card.id === defaultId,
  };
}

export async function listCards(stripe: StripeClient, log: FastifyBaseLogger, owner: CardOwner): Promise<PaymentMethod[]> {
  const { cards, defaultId } = await wallet(stripe, log, owner);
  return cards.map((card) => toPaymentMethod(card, defaultId));
}

/** The card must be the firm customer's: another customer's id (another firm's) is a 404. */
function ownCard(cards: Stripe.PaymentMethod[], id: string): Stripe.PaymentMethod {
  const card = cards.find((candidate) => candidate.id === id);
  if (!card) throw new HttpError(404, 'PAYMENT_METHOD_NOT_FOUND', PAYMENT_METHOD_NOT_FOUND_MESSAGE);
  return card;
}

/** Makes the card the one invoices are charged to: on the customer and on the running subscription. */
async function makeDefault(stripe: StripeClient, log: FastifyBaseLogger, owner: CardOwner, cardId: string): Promise<void> {
  await atStripe(log, 'cambiar la tarjeta de cobro', async () => {
    await stripe.customers.update(owner.customerId, { invoice_settings: { default_payment_method: cardId } });
    if (owner.subscriptionId) await stripe.subscriptions.update(owner.subscriptionId, { default_payment_method: cardId });
  });
}

export async function setDefaultCard(stripe: StripeClient, log: FastifyBaseLogger, owner: CardOwner, cardId: string): Promise<PaymentMethod[]> {
  const { cards } = await wallet(stripe, log, owner);
  ownCard(cards, cardId);
  await makeDefault(stripe, log, owner, cardId);
  return cards.map((card) => toPaymentMethod(card, cardId));
}

/**
 * Detaches a card. A running paid plan keeps at least one card (409 LAST_CARD); removing the card that
 * pays while others remain first makes another one pay, so the next invoice has a card to charge.
 */
export async function removeCard(stripe: StripeClient, log: FastifyBaseLogger, owner: CardOwner, cardId: string): Promise<void> {
  const { cards, defaultId } = await wallet(stripe, log, owner);
  ownCard(cards, cardId);
  const others = cards.filter((card) => card.id !== cardId);
  if (owner.subscriptionId && others.length === 0) throw new HttpError(409, 'LAST_CARD', LAST_CARD_MESSAGE);
  const successor = others[0];
  if (cardId === defaultId && successor) await makeDefault(stripe, log, owner, successor.id);
  await atStripe(log, 'quitar la tarjeta', () => stripe.paymentMethods.detach(cardId));
}
