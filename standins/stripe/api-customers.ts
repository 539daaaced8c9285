/** Customers, their tax ids, cards and setup intents. */
import { listOf, type ApiContext, type Route } from './api.ts';
import { mergeMetadata, obj, str, type FormValue } from './form.ts';
import { StripeApiError, invalidParam, missingParam, noSuch } from './http.ts';
import type { Customer, PaymentMethod, StripeObject, Subscription } from './objects.ts';
import type { StripeStore } from './store.ts';

const ADDRESS_FIELDS = ['city', 'country', 'line1', 'line2', 'postal_code', 'state'] as const;

function addressOf(value: FormValue | undefined): Customer['address'] {
  if (value === '') return null;
  const address = obj(value);
  if (address === undefined) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, str(address[field]) || null]));
}

/** A card attached to this customer, for invoice_settings[default_payment_method] and the like. */
export function ownCard(store: StripeStore, customer: string, id: string, param: string): PaymentMethod {
  const card = store.get<PaymentMethod>('payment_method', id, param);
  if (card.customer !== customer) throw invalidParam(param, `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`);
  return card;
}

function applyCustomerFields(store: StripeStore, customer: Customer, form: ApiContext['form']): void {
  const name = str(form.name);
  const email = str(form.email);
  if (name !== undefined) customer.name = name || null;
  if (email !== undefined) {
    if (email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw invalidParam('email', 'Invalid email address: ' + email);
    customer.email = email || null;
  }
  if (form.address !== undefined) customer.address = addressOf(form.address);
  if (form.metadata !== undefined) customer.metadata = mergeMetadata(customer.metadata, form.metadata);
  const defaultCard = str(obj(form.invoice_settings)?.default_payment_method);
  if (defaultCard !== undefined) {
    customer.invoice_settings.default_payment_method = defaultCard === '' ? null : ownCard(store, customer.id, defaultCard, 'invoice_settings[default_payment_method]').id;
  }
  const locales = form.preferred_locales;
  if (locales !== undefined) customer.preferred_locales = Array.isArray(locales) ? locales.filter((locale) => typeof locale === 'string') : [];
}

// es_cif is Stripe's type for every Spanish tax id ("Spanish NIF number (previous Spanish CIF number)"): a CIF (B12345674), a personal NIF (12345678Z) or a NIE (X1234567L) — one letter or digit, seven digits, one letter or digit.
const TAX_ID_FORMATS: Record<string, RegExp> = { es_cif: /^[A-Z0-9]\d{7}[A-Z0-9]$/, eu_vat: /^[A-Z]{2}[A-Z0-9]{2,13}$/ };

export const customerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/customers',
    handle: ({ store, form }) => {
      const id = store.newId('cus');
      const customer = store.put<Customer>({
        id,
        object: 'customer',
        address: null,
        balance: 0,
        created: store.now(),
        currency: null,
        delinquent: false,
        description: str(form.description) ?? null,
        email: null,
        invoice_prefix: id.slice(4, 12).toUpperCase(),
        invoice_settings: { default_payment_method: null, custom_fields: null, footer: null, rendering_options: null },
        livemode: false,
        metadata: {},
        name: null,
        phone: null,
        preferred_locales: [],
        tax_exempt: 'none',
        _next_invoice_number: 0,
      });
      try {
        applyCustomerFields(store, customer, form);
      } catch (error) {
        customer.deleted = true; // a rejected creation leaves nothing behind
        throw error;
      }
      return customer;
    },
  },
  { method: 'GET', path: '/v1/customers/:id', handle: ({ store, params }) => store.get<Customer>('customer', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/customers/:id',
    handle: ({ store, params, form }) => {
      const customer = store.get<Customer>('customer', params[0] ?? '');
      const copy = structuredClone(customer);
      applyCustomerFields(store, copy, form); // all or nothing: checked on a copy first
      return store.put(copy);
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id/payment_methods',
    handle: ({ store, params, form }) => {
      const customer = store.get<Customer>('customer', params[0] ?? '');
      const type = str(form.type);
      const cards = store.all<PaymentMethod>('payment_method', (card) => card.customer === customer.id && (type === undefined || card.type === type));
      return listOf(cards, `/v1/customers/${customer.id}/payment_methods`, form);
    },
  },
  {
    method: 'POST',
    path: '/v1/customers/:id/tax_ids',
    handle: ({ store, params, form }) => {
      const customer = store.get<Customer>('customer', params[0] ?? '');
      const type = str(form.type);
      const value = str(form.value)?.replace(/[\s.-]/g, '').toUpperCase();
      if (type === undefined) throw missingParam('type');
      if (value === undefined || value === '') throw missingParam('value');
      const format = TAX_ID_FORMATS[type];
      if (format === undefined) throw invalidParam('type', `Invalid value for type: ${type} is not supported here.`);
      if (!format.test(value)) throw new StripeApiError(400, 'invalid_request_error', `Invalid value for ${type}.`, 'tax_id_invalid', 'value');
      return store.put({
        id: store.newId('txi'),
        object: 'tax_id',
        country: 'ES',
        created: store.now(),
        customer: customer.id,
        livemode: false,
        owner: { type: 'customer', customer: customer.id, account: null, application: null },
        type,
        value,
        verification: { status: 'unavailable', verified_address: null, verified_name: null },
      });
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id/tax_ids',
    handle: ({ store, params, form }) => {
      const customer = store.get<Customer>('customer', params[0] ?? '');
      return listOf(store.all('tax_id', (taxId) => taxId.customer === customer.id), `/v1/customers/${customer.id}/tax_ids`, form);
    },
  },
  {
    method: 'DELETE',
    path: '/v1/customers/:id/tax_ids/:tax_id',
    handle: ({ store, params }) => {
      const customer = store.get<Customer>('customer', params[0] ?? '');
      const taxId = store.get<StripeObject>('tax_id', params[1] ?? '');
      if (taxId.customer !== customer.id) throw noSuch('tax id', taxId.id); // another customer's: as if it did not exist
      taxId.deleted = true;
      return { id: taxId.id, object: 'tax_id', deleted: true };
    },
  },
  { method: 'GET', path: '/v1/payment_methods/:id', handle: ({ store, params }) => store.get<PaymentMethod>('payment_method', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/payment_methods/:id/detach',
    handle: ({ store, hooks, params, request }) => {
      const card = store.get<PaymentMethod>('payment_method', params[0] ?? '');
      if (card.customer === null) throw invalidParam('payment_method', `The payment method you provided is not attached to a customer so detachment is impossible.`);
      const owner = store.get<Customer>('customer', card.customer);
      if (owner.invoice_settings.default_payment_method === card.id) owner.invoice_settings.default_payment_method = null;
      for (const subscription of store.all<Subscription>('subscription', (entry) => entry.default_payment_method === card.id)) subscription.default_payment_method = null;
      const previous = { customer: card.customer };
      card.customer = null;
      hooks.emit('payment_method.detached', card, request, previous);
      return card;
    },
  },
  { method: 'GET', path: '/v1/setup_intents/:id', handle: ({ store, params }) => store.get('setup_intent', params[0] ?? '') },
];
