import type { Kysely } from 'kysely';
import { OWNER_ONLY_MESSAGE } from '#shared/api/billing.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError, unauthenticated } from '../../http/errors.ts';
import { firmMember } from '../users/service.ts';

/** Who asks, as billing needs it: reads are for every member of the firm, changes for its owner. */
export interface BillingCaller {
  userId: string;
  groupId: string;
  isOwner: boolean;
  email: string;
  groupName: string;
}

export interface SessionIds {
  userId: string;
  groupId: string;
}

export async function billingCaller(db: Kysely<Database>, session: SessionIds): Promise<BillingCaller> {
  const member = await firmMember(db, session);
  if (!member) throw unauthenticated();
  return { userId: member.userId, groupId: member.groupId, isOwner: member.role === 'owner', email: member.email, groupName: member.firmName };
}

/** 403 OWNER_ONLY for a member: only who registered the firm may pay, change cards or the billing info. */
export async function requireOwner(db: Kysely<Database>, session: SessionIds): Promise<BillingCaller> {
  const caller = await billingCaller(db, session);
  if (!caller.isOwner) throw new HttpError(403, 'OWNER_ONLY', OWNER_ONLY_MESSAGE);
  return caller;
}
