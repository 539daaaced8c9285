/**
 * Subscription schedules, the part AutoAsesor uses to change plan at the end of a period: created from
 * a subscription (one phase: its items and current period), given phases, released.
 */
import { invalidParam, missingParam } from './http.ts';
import { addMonth } from './invoices.ts';
import { str, list, obj, metadataOf, type FormObject } from './form.ts';
import type { Phase, Price, Subscription, SubscriptionSchedule } from './objects.ts';
import type { StripeStore } from './store.ts';
import type { StripeEvent, WebhookQueue } from './webhooks.ts';

type Request = StripeEvent['request'];

export function scheduleFromSubscription(store: StripeStore, hooks: WebhookQueue, subscriptionId: string, request: Request): SubscriptionSchedule {
  const subscription = store.get<Subscription>('subscription', subscriptionId, 'from_subscription');
  if (subscription.schedule !== null) throw invalidParam('from_subscription', `You cannot migrate a subscription that is already attached to a schedule: \`${subscription.schedule}\`.`);
  if (subscription.status === 'canceled') throw invalidParam('from_subscription', 'This subscription has been canceled.');
  const item = subscription.items.data[0];
  const start = item?.current_period_start ?? store.now();
  const end = item?.current_period_end ?? addMonth(start);
  const schedule = store.put<SubscriptionSchedule>({
    id: store.newId('sub_sched'),
    object: 'subscription_schedule',
    canceled_at: null,
    completed_at: null,
    created: store.now(),
    current_phase: { start_date: start, end_date: end },
    customer: subscription.customer,
    end_behavior: 'release',
    livemode: false,
    metadata: {},
    phases: [{ start_date: start, end_date: end, items: subscription.items.data.map((entry) => ({ price: entry.price.id, ...(entry.quantity !== undefined && { quantity: entry.quantity }) })), metadata: {} }],
    released_at: null,
    released_subscription: null,
    status: 'active',
    subscription: subscription.id,
  });
  const previous = { schedule: null };
  subscription.schedule = schedule.id;
  hooks.emit('subscription_schedule.created', schedule, request);
  hooks.emit('customer.subscription.updated', subscription, request, previous);
  return schedule;
}

/** New phases replace the old ones; each starts where the previous ends (dates given or one month each). */
export function updateSchedule(store: StripeStore, hooks: WebhookQueue, schedule: SubscriptionSchedule, params: FormObject, request: Request): SubscriptionSchedule {
  if (schedule.status !== 'active') throw invalidParam('schedule', `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`);
  const endBehavior = str(params.end_behavior);
  if (endBehavior !== undefined && endBehavior !== 'release' && endBehavior !== 'cancel') throw invalidParam('end_behavior', `Invalid end_behavior: must be one of release or cancel`);
  const phases: Phase[] = [];
  if (params.phases !== undefined) {
    let start = schedule.phases[0]?.start_date ?? store.now();
    list(params.phases).forEach((raw, index) => {
      const phase = obj(raw) ?? {};
      const items = list(phase.items).map((rawItem, itemIndex) => {
        const item = obj(rawItem) ?? {};
        const price = str(item.price);
        if (price === undefined) throw missingParam(`phases[${index}][items][${itemIndex}][price]`);
        store.get<Price>('price', price, `phases[${index}][items][${itemIndex}][price]`);
        const quantity = str(item.quantity);
        return { price, ...(quantity !== undefined && { quantity: Number(quantity) }) };
      });
      if (items.length === 0) throw missingParam(`phases[${index}][items]`);
      const startDate = timestampOf(str(phase.start_date), start, store.now());
      const endDate = endOf(phase, startDate, store.now());
      phases.push({ start_date: startDate, end_date: endDate, items, metadata: metadataOf(phase.metadata) });
      start = endDate ?? startDate;
    });
    if (phases.slice(0, -1).some((phase) => phase.end_date === null)) throw invalidParam('phases', 'Only the last phase can be open-ended.');
    schedule.phases = phases;
  }
  if (endBehavior !== undefined) schedule.end_behavior = endBehavior;
  hooks.emit('subscription_schedule.updated', schedule, request);
  return schedule;
}

export function releaseSchedule(store: StripeStore, hooks: WebhookQueue, schedule: SubscriptionSchedule, request: Request): SubscriptionSchedule {
  if (schedule.status !== 'active') throw invalidParam('schedule', `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`);
  const subscription = schedule.subscription === null ? undefined : store.get<Subscription>('subscription', schedule.subscription);
  schedule.status = 'released';
  schedule.released_at = store.now();
  schedule.released_subscription = schedule.subscription;
  schedule.subscription = null;
  schedule.current_phase = null;
  hooks.emit('subscription_schedule.released', schedule, request);
  if (subscription !== undefined) {
    subscription.schedule = null;
    hooks.emit('customer.subscription.updated', subscription, request, { schedule: schedule.id });
  }
  return schedule;
}

function timestampOf(value: string | undefined, fallback: number, now: number): number {
  if (value === undefined) return fallback;
  if (value === 'now') return now;
  if (!/^\d+$/.test(value)) throw invalidParam('start_date', `Invalid timestamp: ${value}`);
  return Number(value);
}

/** end_date, else `duration` (months) or `iterations`, else open-ended. */
function endOf(phase: FormObject, start: number, now: number): number | null {
  const endDate = str(phase.end_date);
  if (endDate !== undefined) return timestampOf(endDate, start, now);
  const duration = obj(phase.duration);
  const months = duration !== undefined ? (str(duration.interval) === 'year' ? 12 : 1) * Number(str(duration.interval_count) ?? '1') : str(phase.iterations) !== undefined ? Number(str(phase.iterations)) : null;
  if (months === null) return null;
  let end = start;
  for (let month = 0; month < months; month++) end = addMonth(end);
  return end;
}
