/** Checkout sessions, subscriptions, subscription schedules and invoices. */
import { listOf, type Route } from './api.ts';
import { ownCard } from './api-customers.ts';
import { cancelSubscription, changed } from './billing.ts';
import { bool, list, mergeMetadata, metadataOf, obj, str, strings } from './form.ts';
import { invalidParam, missingParam } from './http.ts';
import type { CheckoutSession, Customer, Invoice, Price, Subscription, SubscriptionSchedule } from './objects.ts';
import { releaseSchedule, scheduleFromSubscription, updateSchedule } from './schedules.ts';

export const billingRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/checkout/sessions',
    handle: ({ store, form }) => {
      const mode = str(form.mode);
      if (mode === undefined) throw missingParam('mode');
      if (mode !== 'subscription' && mode !== 'setup') throw invalidParam('mode', `The stand-in supports mode \`subscription\` and \`setup\`, not \`${mode}\`.`);
      const customerId = str(form.customer);
      if (customerId === undefined) throw missingParam('customer');
      const customer = store.get<Customer>('customer', customerId, 'customer');
      const successUrl = str(form.success_url);
      if (successUrl === undefined) throw missingParam('success_url');
      const lineItems = mode === 'subscription' ? lineItemsOf(store, form) : [];
      const methodTypes = [...strings(form.payment_method_types), ...strings(form.allowed_payment_method_types)];
      if (methodTypes.some((type) => type !== 'card')) throw invalidParam('payment_method_types', 'The stand-in takes cards only.');
      if (mode === 'setup' && str(form.currency) === undefined && methodTypes.length === 0) throw missingParam('currency');
      const id = `cs_test_${store.newId('x').slice(2)}`;
      const amount = lineItems.reduce((sum, line) => sum + (line.unitAmount ?? 0) * (line.quantity ?? 0), 0);
      return store.put<CheckoutSession>({
        id,
        object: 'checkout.session',
        amount_subtotal: mode === 'setup' ? null : amount,
        amount_total: mode === 'setup' ? null : amount,
        cancel_url: str(form.cancel_url) ?? null,
        client_reference_id: str(form.client_reference_id) ?? null,
        created: store.now(),
        currency: mode === 'setup' ? (str(form.currency) ?? null) : 'eur',
        customer: customer.id,
        customer_email: null,
        expires_at: store.now() + 24 * 3600,
        livemode: false,
        locale: str(form.locale) ?? null,
        metadata: metadataOf(form.metadata),
        mode,
        payment_method_types: ['card'],
        payment_status: 'unpaid',
        setup_intent: null,
        status: 'open',
        subscription: null,
        success_url: successUrl,
        url: `${store.baseUrl()}/c/pay/${id}`,
        _line_items: lineItems.map(({ price, quantity }) => ({ price, quantity })),
        _subscription_metadata: metadataOf(obj(form.subscription_data)?.metadata),
      });
    },
  },
  { method: 'GET', path: '/v1/checkout/sessions/:id', handle: ({ store, params }) => store.get<CheckoutSession>('checkout.session', params[0] ?? '') },
  {
    method: 'GET',
    path: '/v1/checkout/sessions',
    handle: ({ store, form }) => {
      const customer = str(form.customer);
      const status = str(form.status);
      const matches = store.all<CheckoutSession>('checkout.session', (entry) => (customer === undefined || entry.customer === customer) && (status === undefined || entry.status === status));
      return listOf(matches, '/v1/checkout/sessions', form);
    },
  },
  {
    // Stripe: only an open session can be expired; its page then says it can no longer be paid.
    method: 'POST',
    path: '/v1/checkout/sessions/:id/expire',
    handle: ({ store, params }) => {
      const session = store.get<CheckoutSession>('checkout.session', params[0] ?? '');
      if (session.status !== 'open') throw invalidParam('session', `Only a checkout session with status \`open\` can be expired; this one is \`${session.status}\`.`);
      session.status = 'expired';
      return session;
    },
  },
  {
    method: 'GET',
    path: '/v1/subscriptions',
    handle: ({ store, form }) => {
      const customer = str(form.customer);
      const status = str(form.status);
      const matches = store.all<Subscription>('subscription', (entry) => (customer === undefined || entry.customer === customer) && (status === 'all' ? true : status === undefined ? entry.status !== 'canceled' : entry.status === status));
      return listOf(matches, '/v1/subscriptions', form);
    },
  },
  { method: 'GET', path: '/v1/subscriptions/:id', handle: ({ store, params }) => store.get<Subscription>('subscription', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/subscriptions/:id',
    handle: ({ store, hooks, params, form, request }) => {
      const subscription = store.get<Subscription>('subscription', params[0] ?? '');
      if (subscription.status === 'canceled') throw invalidParam('subscription', 'A canceled subscription can only update its cancellation_details and metadata.');
      const before = structuredClone(subscription);
      const cancelAtPeriodEnd = bool(form.cancel_at_period_end);
      const card = str(form.default_payment_method);
      if (card !== undefined && card !== '') ownCard(store, subscription.customer, card, 'default_payment_method');
      // Stripe: a subscription a schedule manages takes its end from the schedule; cancelling it directly
      // is refused (the caller releases the schedule first, which drops its next phases, or updates it).
      if ((cancelAtPeriodEnd !== undefined || form.cancel_at !== undefined) && subscription.schedule !== null) {
        throw invalidParam('cancel_at_period_end', `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`);
      }
      if (cancelAtPeriodEnd !== undefined) {
        subscription.cancel_at_period_end = cancelAtPeriodEnd;
        subscription.cancel_at = cancelAtPeriodEnd ? (subscription.items.data[0]?.current_period_end ?? null) : null;
        subscription.canceled_at = cancelAtPeriodEnd ? store.now() : null;
      }
      if (card !== undefined) subscription.default_payment_method = card || null;
      if (form.metadata !== undefined) subscription.metadata = mergeMetadata(subscription.metadata, form.metadata);
      const previous = changed(before, subscription);
      if (Object.keys(previous).length > 0) hooks.emit('customer.subscription.updated', subscription, request, previous);
      return subscription;
    },
  },
  {
    method: 'DELETE',
    path: '/v1/subscriptions/:id',
    handle: ({ store, hooks, params, request }) => {
      const subscription = store.get<Subscription>('subscription', params[0] ?? '');
      if (subscription.status === 'canceled') throw invalidParam('subscription', `No such subscription: '${subscription.id}' (it is already canceled).`);
      cancelSubscription(store, hooks, subscription, store.now(), request);
      return subscription;
    },
  },
  {
    method: 'POST',
    path: '/v1/subscription_schedules',
    handle: ({ store, hooks, form, request }) => {
      const from = str(form.from_subscription);
      if (from === undefined) throw invalidParam('from_subscription', 'The stand-in creates schedules from an existing subscription only (from_subscription).');
      return scheduleFromSubscription(store, hooks, from, request);
    },
  },
  { method: 'GET', path: '/v1/subscription_schedules/:id', handle: ({ store, params }) => store.get<SubscriptionSchedule>('subscription_schedule', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/subscription_schedules/:id',
    handle: ({ store, hooks, params, form, request }) => updateSchedule(store, hooks, store.get<SubscriptionSchedule>('subscription_schedule', params[0] ?? ''), form, request),
  },
  {
    method: 'POST',
    path: '/v1/subscription_schedules/:id/release',
    handle: ({ store, hooks, params, request }) => releaseSchedule(store, hooks, store.get<SubscriptionSchedule>('subscription_schedule', params[0] ?? ''), request),
  },
  {
    method: 'GET',
    path: '/v1/invoices',
    handle: ({ store, form }) => {
      const customer = str(form.customer);
      const subscription = str(form.subscription);
      const status = str(form.status);
      const matches = store.all<Invoice>(
        'invoice',
        (invoice) => (customer === undefined || invoice.customer === customer) && (subscription === undefined || invoice.parent?.subscription_details.subscription === subscription) && (status === undefined || invoice.status === status),
      );
      return listOf(matches, '/v1/invoices', form);
    },
  },
  { method: 'GET', path: '/v1/invoices/:id', handle: ({ store, params }) => store.get<Invoice>('invoice', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/invoices/:id/pay',
    handle: ({ billing, params, form, request }) => billing.payInvoice(params[0] ?? '', request, str(form.payment_method)),
  },
];

/** A subscription checkout's line items: licensed prices with a quantity, metered ones without. */
function lineItemsOf(store: Parameters<Route['handle']>[0]['store'], form: Parameters<Route['handle']>[0]['form']): { price: string; quantity: number | null; unitAmount: number | null }[] {
  const items = list(form.line_items);
  if (items.length === 0) throw missingParam('line_items');
  return items.map((raw, index) => {
    const item = obj(raw) ?? {};
    const priceId = str(item.price);
    if (priceId === undefined) throw missingParam(`line_items[${index}][price]`);
    const price = store.get<Price>('price', priceId, `line_items[${index}][price]`);
    if (price.recurring === null) throw invalidParam(`line_items[${index}][price]`, 'In subscription mode every price must be recurring.');
    const quantityText = str(item.quantity);
    if (price.recurring.usage_type === 'metered') {
      if (quantityText !== undefined) throw invalidParam(`line_items[${index}][quantity]`, 'Quantity should not be specified where usage_type is `metered`. Remove quantity from `line_items[' + index + ']`.');
      return { price: price.id, quantity: null, unitAmount: null };
    }
    if (quantityText === undefined) throw missingParam(`line_items[${index}][quantity]`);
    if (!/^[1-9]\d*$/.test(quantityText)) throw invalidParam(`line_items[${index}][quantity]`, `Invalid positive integer: ${quantityText}`);
    return { price: price.id, quantity: Number(quantityText), unitAmount: price.unit_amount };
  });
}
