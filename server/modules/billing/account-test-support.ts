/**
 * Test support for the billing account suites: a member of a firm, and a firm's subscription arranged
 * as the webhooks would leave it. Not product code.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { registerUser, type CookieJar, type TestServer } from '../../test/harness.ts';

/** A user who joined the owner's firm as a member (the colleagues' invitation, done by hand). */
export async function registerMember(server: TestServer, db: Kysely<Database>, email: string, ownerEmail: string): Promise<CookieJar> {
  const jar = await registerUser(server.app, email, 'Luis Martín');
  const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', ownerEmail).executeTakeFirstOrThrow();
  await db.updateTable('users').set({ group_id: groupId, role: 'member' }).where('email', '=', email).execute();
  return jar;
}

export async function groupOf(db: Kysely<Database>, email: string): Promise<string> {
  return (await db.selectFrom('users').select('group_id').where('email', '=', email).executeTakeFirstOrThrow()).group_id;
}

export interface ArrangedSubscription {
  planRef?: string;
  status?: string;
  customerId?: string | null;
  subscriptionId?: string | null;
  periodEnd?: string;
}

/** The firm's subscription row as the webhooks write it after a checkout. */
export async function arrangeSubscription(db: Kysely<Database>, groupId: string, arranged: ArrangedSubscription): Promise<void> {
  const plan = arranged.planRef ? await db.selectFrom('plans').select('id').where('ref', '=', arranged.planRef).executeTakeFirstOrThrow() : undefined;
  await db
    .updateTable('subscriptions')
    .set({
      ...(plan && { plan_id: plan.id }),
      ...(arranged.status !== undefined && { status: arranged.status }),
      ...(arranged.customerId !== undefined && { stripe_customer_id: arranged.customerId }),
      ...(arranged.subscriptionId !== undefined && { stripe_subscription_id: arranged.subscriptionId }),
      ...(arranged.periodEnd !== undefined && { current_period_end: arranged.periodEnd }),
    })
    .where('group_id', '=', groupId)
    .execute();
}
