/**
 * What the stand-in remembers, in memory for its life: every object by id (which makes `expand[]`
 * generic), the idempotency keys' stored answers, the meter events received, and which customers'
 * next payment must fail.
 */
import { randomBytes } from 'node:crypto';
import { STANDIN_CATALOGUE } from './catalogue.ts';
import { noSuch } from './http.ts';
import type { Meter, Price, Product, StripeObject } from './objects.ts';

export interface MeterEventRecord {
  identifier: string;
  eventName: string;
  customer: string;
  value: number;
  /** Unix seconds: when the usage happened, as sent. */
  timestamp: number;
  receivedAt: string;
  /** An identifier already received: recorded, but counted once. */
  duplicate: boolean;
  /** A POST whose Idempotency-Key replayed an earlier answer (always a duplicate too). */
  replayed: boolean;
}

export class StripeStore {
  private readonly objects = new Map<string, StripeObject>();
  readonly idempotent = new Map<string, { request: string; status: number; body: string }>();
  readonly meterEvents: MeterEventRecord[] = [];
  readonly failNextPayment = new Set<string>();

  constructor(
    readonly baseUrl: () => string,
    private readonly clock: () => Date,
  ) {
    seedCatalogue(this);
  }

  now(): number {
    return Math.floor(this.clock().getTime() / 1000);
  }

  isoNow(): string {
    return this.clock().toISOString();
  }

  newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '0')}`;
  }

  put<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  find(id: string): StripeObject | undefined {
    return this.objects.get(id);
  }

  /** The object of that kind; Stripe's 404 (or 400 naming `param`, when the id came in a parameter). */
  get<T extends StripeObject>(kind: T['object'], id: string, param?: string): T {
    const object = this.objects.get(id);
    if (object === undefined || object.object !== kind || object.deleted === true) throw noSuch(kind.replace(/^.*\./, '').replace(/_/g, ' '), id, param);
    return object as T;
  }

  /** Every object of a kind, newest first, as Stripe's lists are. */
  all<T extends StripeObject>(kind: T['object'], filter: (object: T) => boolean = () => true): T[] {
    return [...this.objects.values()].filter((object): object is T => object.object === kind && object.deleted !== true && filter(object as T)).reverse();
  }
}

function seedCatalogue(store: StripeStore): void {
  const created = store.now();
  const { meter, products, prices } = STANDIN_CATALOGUE;
  store.put<Meter>({
    id: meter.id,
    object: 'billing.meter',
    created,
    updated: created,
    display_name: meter.displayName,
    event_name: meter.eventName,
    event_time_window: null,
    livemode: false,
    status: 'active',
    status_transitions: { deactivated_at: null },
    customer_mapping: { type: 'by_id', event_payload_key: 'stripe_customer_id' },
    default_aggregation: { formula: 'sum' },
    value_settings: { event_payload_key: 'value' },
  });
  for (const product of Object.values(products)) store.put(newProduct(product.id, product.name, {}, created));
  for (const price of Object.values(prices)) {
    const metered = 'unitAmountDecimal' in price;
    store.put(
      newPrice({
        id: price.id,
        product: price.product,
        lookupKey: price.lookupKey,
        metadata: price.metadata,
        unitAmountDecimal: metered ? price.unitAmountDecimal : String(price.unitAmount),
        meter: metered ? meter.id : null,
        created,
      }),
    );
  }
}

export function newProduct(id: string, name: string, metadata: Record<string, string>, created: number, description: string | null = null): Product {
  return { id, object: 'product', active: true, name, description, metadata, default_price: null, images: [], livemode: false, created, updated: created, type: 'service', url: null };
}

export function newPrice(spec: { id: string; product: string; lookupKey: string | null; metadata: Record<string, string>; unitAmountDecimal: string; meter: string | null; created: number; nickname?: string | null }): Price {
  const whole = /^\d+$/.test(spec.unitAmountDecimal);
  return {
    id: spec.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: spec.created,
    currency: 'eur',
    livemode: false,
    lookup_key: spec.lookupKey,
    metadata: spec.metadata,
    nickname: spec.nickname ?? null,
    product: spec.product,
    recurring: { interval: 'month', interval_count: 1, usage_type: spec.meter === null ? 'licensed' : 'metered', meter: spec.meter, trial_period_days: null },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: whole ? Number(spec.unitAmountDecimal) : null,
    unit_amount_decimal: spec.unitAmountDecimal,
  };
}
