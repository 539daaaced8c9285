/** Products, prices, billing meters and meter events (usage past a plan's limit). */
import { listOf, type Route } from './api.ts';
import { bool, metadataOf, obj, str, strings } from './form.ts';
import { invalidParam, missingParam } from './http.ts';
import type { Customer, Meter, Price, Product } from './objects.ts';
import { newPrice, newProduct } from './store.ts';

export const catalogueRoutes: Route[] = [
  {
    method: 'GET',
    path: '/v1/prices',
    handle: ({ store, form }) => {
      const active = bool(form.active);
      const lookupKeys = strings(form.lookup_keys);
      const product = str(form.product);
      const prices = store.all<Price>(
        'price',
        (price) => (active === undefined || price.active === active) && (lookupKeys.length === 0 || lookupKeys.includes(price.lookup_key ?? '')) && (product === undefined || price.product === product),
      );
      return listOf(prices, '/v1/prices', form);
    },
  },
  { method: 'GET', path: '/v1/prices/:id', handle: ({ store, params }) => store.get<Price>('price', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/prices',
    handle: ({ store, form }) => {
      if (str(form.currency) === undefined) throw missingParam('currency');
      const recurring = obj(form.recurring);
      if (recurring === undefined) throw invalidParam('recurring', 'Only recurring monthly prices are supported by the stand-in.');
      if (str(recurring.interval) !== 'month') throw invalidParam('recurring[interval]', 'Only monthly prices are supported by the stand-in.');
      const metered = str(recurring.usage_type) === 'metered';
      const meter = str(recurring.meter);
      if (metered && meter === undefined) throw missingParam('recurring[meter]');
      if (meter !== undefined) store.get<Meter>('billing.meter', meter, 'recurring[meter]');
      const amount = str(form.unit_amount_decimal) ?? str(form.unit_amount);
      if (amount === undefined || !/^\d+(\.\d+)?$/.test(amount)) throw missingParam('unit_amount');
      const productName = str(obj(form.product_data)?.name);
      const productId = str(form.product) ?? (productName === undefined ? undefined : store.put(newProduct(store.newId('prod'), productName, {}, store.now())).id);
      if (productId === undefined) throw missingParam('product');
      store.get<Product>('product', productId, 'product');
      const lookupKey = str(form.lookup_key) ?? null;
      const holder = lookupKey === null ? undefined : store.all<Price>('price', (price) => price.lookup_key === lookupKey)[0];
      if (holder !== undefined) {
        if (bool(form.transfer_lookup_key) !== true) throw invalidParam('lookup_key', `A price (\`${holder.id}\`) already uses that lookup key.`);
        holder.lookup_key = null;
      }
      return store.put(newPrice({ id: store.newId('price'), product: productId, lookupKey, metadata: metadataOf(form.metadata), unitAmountDecimal: amount, meter: metered ? (meter ?? null) : null, created: store.now(), nickname: str(form.nickname) ?? null }));
    },
  },
  { method: 'GET', path: '/v1/products/:id', handle: ({ store, params }) => store.get<Product>('product', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/products',
    handle: ({ store, form }) => {
      const name = str(form.name);
      if (!name) throw missingParam('name');
      const id = str(form.id) ?? store.newId('prod');
      if (store.find(id) !== undefined) throw invalidParam('id', `Product already exists.`);
      return store.put(newProduct(id, name, metadataOf(form.metadata), store.now(), str(form.description) ?? null));
    },
  },
  {
    method: 'GET',
    path: '/v1/billing/meters',
    handle: ({ store, form }) => {
      const status = str(form.status);
      return listOf(store.all<Meter>('billing.meter', (meter) => status === undefined || meter.status === status), '/v1/billing/meters', form);
    },
  },
  { method: 'GET', path: '/v1/billing/meters/:id', handle: ({ store, params }) => store.get<Meter>('billing.meter', params[0] ?? '') },
  {
    method: 'POST',
    path: '/v1/billing/meters',
    handle: ({ store, form }) => {
      const displayName = str(form.display_name);
      const eventName = str(form.event_name);
      const formula = str(obj(form.default_aggregation)?.formula);
      if (!displayName) throw missingParam('display_name');
      if (!eventName) throw missingParam('event_name');
      if (formula === undefined) throw missingParam('default_aggregation[formula]');
      if (!['sum', 'count', 'last'].includes(formula)) throw invalidParam('default_aggregation[formula]', `Invalid formula: ${formula}`);
      if (store.all<Meter>('billing.meter', (meter) => meter.event_name === eventName && meter.status === 'active').length > 0) {
        throw invalidParam('event_name', `An active meter with event_name \`${eventName}\` already exists.`);
      }
      const now = store.now();
      return store.put<Meter>({
        id: store.newId('mtr'),
        object: 'billing.meter',
        created: now,
        updated: now,
        display_name: displayName,
        event_name: eventName,
        event_time_window: null,
        livemode: false,
        status: 'active',
        status_transitions: { deactivated_at: null },
        customer_mapping: { type: 'by_id', event_payload_key: str(obj(form.customer_mapping)?.event_payload_key) ?? 'stripe_customer_id' },
        default_aggregation: { formula },
        value_settings: { event_payload_key: str(obj(form.value_settings)?.event_payload_key) ?? 'value' },
      });
    },
  },
  {
    // Every POST is recorded (tests count reports); a repeated identifier is flagged and counted once.
    method: 'POST',
    path: '/v1/billing/meter_events',
    handle: ({ store, form }) => {
      const eventName = str(form.event_name);
      if (!eventName) throw missingParam('event_name');
      const meter = store.all<Meter>('billing.meter', (candidate) => candidate.event_name === eventName && candidate.status === 'active')[0];
      if (meter === undefined) throw invalidParam('event_name', `No active meter was found with event_name \`${eventName}\`.`);
      const payload = obj(form.payload) ?? {};
      const customerId = str(payload[meter.customer_mapping.event_payload_key]);
      if (customerId === undefined) throw missingParam(`payload[${meter.customer_mapping.event_payload_key}]`);
      store.get<Customer>('customer', customerId, `payload[${meter.customer_mapping.event_payload_key}]`);
      const value = str(payload[meter.value_settings.event_payload_key]);
      if (value === undefined) throw missingParam(`payload[${meter.value_settings.event_payload_key}]`);
      if (!/^\d+$/.test(value)) throw invalidParam(`payload[${meter.value_settings.event_payload_key}]`, `The value must be a whole number: '${value}'.`);
      const timestampText = str(form.timestamp);
      if (timestampText !== undefined && !/^\d+$/.test(timestampText)) throw invalidParam('timestamp', `Invalid timestamp: ${timestampText}`);
      const timestamp = timestampText === undefined ? store.now() : Number(timestampText);
      const identifier = str(form.identifier) || store.newId('mev');
      const duplicate = store.meterEvents.some((event) => event.identifier === identifier);
      store.meterEvents.push({ identifier, eventName, customer: customerId, value: Number(value), timestamp, receivedAt: store.isoNow(), duplicate, replayed: false });
      return { object: 'billing.meter_event', created: store.now(), event_name: eventName, identifier, livemode: false, payload: Object.fromEntries(Object.entries(payload).filter((entry) => typeof entry[1] === 'string')), timestamp };
    },
    // A replayed POST is still a POST the server sent: recorded as a duplicate, so tests can count reports.
    replayed: ({ store, form }) => {
      const payload = obj(form.payload) ?? {};
      const identifier = str(form.identifier) ?? '';
      const first = store.meterEvents.find((event) => event.identifier === identifier);
      store.meterEvents.push({ identifier, eventName: str(form.event_name) ?? '', customer: str(payload.stripe_customer_id) ?? first?.customer ?? '', value: Number(str(payload.value) ?? 0), timestamp: Number(str(form.timestamp) ?? store.now()), receivedAt: store.isoNow(), duplicate: true, replayed: true });
    },
  },
];
