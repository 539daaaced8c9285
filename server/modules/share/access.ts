import type { Kysely } from 'kysely';
import type { ShareKind } from '#shared/api/share.ts';
import type { Database } from '../../db/schema.ts';

/** What a user may do with an object: its owner's rights, a colleague's grant, or nothing (404). */
export type Access = 'owner' | 'edit' | 'view';

/**
 * The caller's access to one object of the firm (issue 40 §3): 'owner' when they own it, else the grant
 * a colleague gave them, else null. `object` is the row as its module read it, already scoped to the
 * caller's firm: a module never asks about another firm's row.
 */
export async function accessTo(db: Kysely<Database>, kind: ShareKind, object: { id: string; ownerUserId: string }, userId: string): Promise<Access | null> {
  if (object.ownerUserId === userId) return 'owner';
  const grant = await db.selectFrom('shares').select('access').where('object_kind', '=', kind).where('object_id', '=', object.id).where('user_id', '=', userId).executeTakeFirst();
  return grant?.access ?? null;
}

/** The ids of objects of `kind` shared with the user, with the access each grant gives. */
export async function sharedWith(db: Kysely<Database>, kind: ShareKind, userId: string): Promise<Map<string, Exclude<Access, 'owner'>>> {
  const rows = await db.selectFrom('shares').select(['object_id', 'access']).where('object_kind', '=', kind).where('user_id', '=', userId).execute();
  return new Map(rows.map((row) => [row.object_id, row.access]));
}

/** An object is gone: nobody keeps a grant to it. */
export async function forgetShares(db: Kysely<Database>, kind: ShareKind, objectId: string): Promise<void> {
  await db.deleteFrom('shares').where('object_kind', '=', kind).where('object_id', '=', objectId).execute();
}

/** Whether `access` lets the user change the object (its content, not who it is shared with). */
export const canEdit = (access: Access | null): boolean => access === 'owner' || access === 'edit';
