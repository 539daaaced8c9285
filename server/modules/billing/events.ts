import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../db/schema.ts';

/**
 * Stripe's events kept by id (billing_events): a replay is recognised, and the one process that marks
 * an event processed is the one that sends what must go once (the failed-payment email).
 */

/** The id of what the event is about (sub_…, in_…, cs_…), when its object has one. */
function objectIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as { id?: unknown };
  return typeof object.id === 'string' ? object.id : null;
}

/** Keeps the event (once) and tells whether it still needs processing: false for one already processed. */
export async function receiveEvent(db: Kysely<Database>, event: Stripe.Event, now: Date): Promise<boolean> {
  await db
    .insertInto('billing_events')
    .values({ id: event.id, type: event.type, object_id: objectIdOf(event), created: event.created, received_at: now.toISOString(), processed_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('billing_events').select('processed_at').where('id', '=', event.id).executeTakeFirst();
  return row?.processed_at === null;
}

/**
 * Marks the event processed, if nobody has yet. True for the one caller that did: two deliveries of one
 * event at once both apply Stripe's (same) current state, but only one of them gets true here.
 */
export async function markEventProcessed(db: Kysely<Database>, eventId: string, now: Date): Promise<boolean> {
  const result = await db.updateTable('billing_events').set({ processed_at: now.toISOString() }).where('id', '=', eventId).where('processed_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
