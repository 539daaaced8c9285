import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  NOT_A_COLLEAGUE_MESSAGE, OWNER_ONLY_SHARE_MESSAGE, SHARED_OBJECT_NOT_FOUND_MESSAGE, SHARE_KINDS,
  type ObjectShares, type ShareAccess, type ShareGrant, type ShareKind, type SharedObject,
} from '#shared/api/share.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import { copyMacro } from '../macros/store.ts';
import { accessTo, type Access } from './access.ts';

type Caller = Pick<ActiveSession, 'userId' | 'groupId'>;

/** One shareable object as this module sees it: its firm-scoped row's id, owner and name. */
interface ObjectHead {
  id: string;
  ownerUserId: string;
  name: string;
}

export const sharedObjectNotFound = () => new HttpError(404, 'SHARED_OBJECT_NOT_FOUND', SHARED_OBJECT_NOT_FOUND_MESSAGE);
export const ownerOnlyShare = () => new HttpError(403, 'OWNER_ONLY_SHARE', OWNER_ONLY_SHARE_MESSAGE);
/**
 * A grantee who is not an active colleague of the caller's firm: unknown, of another firm, removed, or
 * the owner. One answer for all of them, so it reveals nothing about other firms' users.
 */
export const notAColleague = (path: string) => new HttpError(400, 'NOT_A_COLLEAGUE', NOT_A_COLLEAGUE_MESSAGE, { issues: [{ path, message: NOT_A_COLLEAGUE_MESSAGE }] });

const COPY_SUFFIX = ' (copia)';

/**
 * Sharing of objects with colleagues (issue 40 §3): the grants (shares table), the lists of what the
 * caller shares and what was shared with them, and the caller's own copy of an object they may see.
 * Each kind's table is read directly here; every read is scoped to the caller's firm, so another
 * firm's id is as unknown as a missing one (404).
 */
export class Shares {
  constructor(private readonly deps: { db: Kysely<Database>; now: () => Date }) {}

  /** The heads of `ids` of one kind in the firm (all of them when `ids` is omitted is never used: always a list). */
  private async heads(kind: ShareKind, groupId: string, ids: readonly string[]): Promise<ObjectHead[]> {
    if (ids.length === 0) return [];
    const { db } = this.deps;
    switch (kind) {
      case 'template':
        return db.selectFrom('doc_templates').select(['id', 'owner_user_id as ownerUserId', 'name']).where('group_id', '=', groupId).where('id', 'in', ids).execute();
      case 'form':
        return db.selectFrom('doc_forms').select(['id', 'owner_user_id as ownerUserId', 'title as name']).where('group_id', '=', groupId).where('id', 'in', ids).execute();
      case 'schedule':
        return db.selectFrom('flow_schedules').select(['id', 'user_id as ownerUserId', 'flow_name as name']).where('group_id', '=', groupId).where('id', 'in', ids).execute();
      case 'flow-settings':
        return db.selectFrom('script_settings').select(['id', 'user_id as ownerUserId', 'name']).where('group_id', '=', groupId).where('id', 'in', ids).execute();
      case 'macro':
        // A deleted macro (kept for the history's runs) is nobody's to share or copy.
        return db.selectFrom('macros').select(['id', 'owner_user_id as ownerUserId', 'name']).where('group_id', '=', groupId).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    }
  }

  private async head(kind: ShareKind, groupId: string, id: string): Promise<ObjectHead | null> {
    return (await this.heads(kind, groupId, [id]))[0] ?? null;
  }

  /** The object and the caller's access to it; 404 when it is not the firm's or the caller may not see it. */
  private async visible(caller: Caller, kind: ShareKind, id: string): Promise<{ object: ObjectHead; access: Access }> {
    const object = await this.head(kind, caller.groupId, id);
    const access = object ? await accessTo(this.deps.db, kind, object, caller.userId) : null;
    if (!object || !access) throw sharedObjectNotFound();
    return { object, access };
  }

  /** The object, when the caller owns it: 404 when they cannot see it, 403 when they only have a grant. */
  private async owned(caller: Caller, kind: ShareKind, id: string): Promise<ObjectHead> {
    const { object, access } = await this.visible(caller, kind, id);
    if (access !== 'owner') throw ownerOnlyShare();
    return object;
  }

  /** The caller's objects shared with someone, with how many colleagues each. */
  async own(caller: Caller, kind?: ShareKind): Promise<SharedObject[]> {
    const { db } = this.deps;
    let query = db
      .selectFrom('shares')
      // A removed colleague's grant no longer counts.
      .innerJoin('users', 'users.id', 'shares.user_id')
      .select(['shares.object_kind', 'shares.object_id', (eb) => eb.fn.countAll<number | string>().as('grants')])
      .where('shares.group_id', '=', caller.groupId)
      .where('shares.created_by', '=', caller.userId)
      .where('users.disabled_at', 'is', null)
      .groupBy(['shares.object_kind', 'shares.object_id']);
    if (kind) query = query.where('shares.object_kind', '=', kind);
    const rows = await query.execute();
    const ownerName = (await db.selectFrom('users').select('name').where('id', '=', caller.userId).executeTakeFirst())?.name ?? '';
    const items: SharedObject[] = [];
    for (const objectKind of SHARE_KINDS) {
      const counts = new Map(rows.filter((row) => row.object_kind === objectKind).map((row) => [row.object_id, Number(row.grants)]));
      // Only what the caller still owns (an object deleted or handed over is not theirs to list).
      for (const object of await this.heads(objectKind, caller.groupId, [...counts.keys()])) {
        if (object.ownerUserId !== caller.userId) continue;
        items.push({ kind: objectKind, id: object.id, name: object.name, ownerName, sharedWith: counts.get(object.id) ?? 0, access: 'owner' });
      }
    }
    return items.sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }

  /** Objects colleagues shared with the caller, with the access each grant gives. */
  async sharedWithMe(caller: Caller, kind?: ShareKind): Promise<SharedObject[]> {
    const { db } = this.deps;
    let query = db.selectFrom('shares').select(['object_kind', 'object_id', 'access']).where('group_id', '=', caller.groupId).where('user_id', '=', caller.userId);
    if (kind) query = query.where('object_kind', '=', kind);
    const rows = await query.execute();
    const items: SharedObject[] = [];
    for (const objectKind of SHARE_KINDS) {
      const grants = new Map(rows.filter((row) => row.object_kind === objectKind).map((row) => [row.object_id, row.access]));
      const objects = (await this.heads(objectKind, caller.groupId, [...grants.keys()])).filter((object) => object.ownerUserId !== caller.userId);
      const owners = await this.userNames(objects.map((object) => object.ownerUserId));
      for (const object of objects) {
        const access = grants.get(object.id);
        if (access) items.push({ kind: objectKind, id: object.id, name: object.name, ownerName: owners.get(object.ownerUserId) ?? '', sharedWith: 1, access });
      }
    }
    return items.sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }

  private async userNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.deps.db.selectFrom('users').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Who an object is shared with and who else it could be (owner only). */
  async objectShares(caller: Caller, kind: ShareKind, id: string): Promise<ObjectShares> {
    const object = await this.owned(caller, kind, id);
    return this.describe(caller, kind, object);
  }

  private async describe(caller: Caller, kind: ShareKind, object: ObjectHead): Promise<ObjectShares> {
    const { db } = this.deps;
    const grants = await db
      .selectFrom('shares')
      .innerJoin('users', 'users.id', 'shares.user_id')
      .select(['users.id as userId', 'users.name', 'users.email', 'shares.access'])
      .where('shares.object_kind', '=', kind)
      .where('shares.object_id', '=', object.id)
      .where('shares.group_id', '=', caller.groupId)
      .where('users.disabled_at', 'is', null)
      .orderBy('users.name')
      .execute();
    const colleagues = await db
      .selectFrom('users')
      .select(['id as userId', 'name', 'email'])
      .where('group_id', '=', caller.groupId)
      .where('disabled_at', 'is', null)
      .where('id', '!=', object.ownerUserId)
      .orderBy('name')
      .execute();
    return { kind, id: object.id, grants, colleagues };
  }

  /** The ids among `userIds` that are active members of the firm other than the owner. */
  private async colleaguesAmong(groupId: string, ownerUserId: string, userIds: readonly string[]): Promise<Set<string>> {
    // Ids are UUIDs; anything else (a NUL PostgreSQL would refuse in text) is nobody.
    const candidates = [...new Set(userIds)].filter((userId) => /^[\w-]+$/.test(userId));
    if (candidates.length === 0) return new Set();
    const rows = await this.deps.db
      .selectFrom('users')
      .select('id')
      .where('group_id', '=', groupId)
      .where('disabled_at', 'is', null)
      .where('id', 'in', candidates)
      .execute();
    return new Set(rows.map((row) => row.id).filter((userId) => userId !== ownerUserId));
  }

  /** Replaces who the object is shared with (owner only). A grantee who is not a colleague: 400, nothing written. */
  async replaceGrants(caller: Caller, kind: ShareKind, id: string, grants: readonly ShareGrant[]): Promise<ObjectShares> {
    const object = await this.owned(caller, kind, id);
    // One grant per colleague: the last one given wins.
    const byUser = new Map(grants.map((grant) => [grant.userId, grant.access]));
    const colleagues = await this.colleaguesAmong(caller.groupId, object.ownerUserId, [...byUser.keys()]);
    const index = grants.findIndex((grant) => !colleagues.has(grant.userId));
    if (index >= 0) throw notAColleague(`grants.${index}.userId`);
    const created = this.deps.now().toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('shares').where('object_kind', '=', kind).where('object_id', '=', object.id).execute();
      if (byUser.size === 0) return;
      await trx
        .insertInto('shares')
        .values([...byUser].map(([userId, access]) => ({ id: randomUUID(), group_id: caller.groupId, object_kind: kind, object_id: object.id, user_id: userId, access, created_by: caller.userId, created_at: created })))
        .execute();
    });
    return this.describe(caller, kind, object);
  }

  /** One colleague's access set, changed, or removed (access null); owner only. */
  async editGrant(caller: Caller, kind: ShareKind, id: string, userId: string, access: ShareAccess | null): Promise<ObjectShares> {
    const object = await this.owned(caller, kind, id);
    const { db } = this.deps;
    if (access === null) {
      if (!/^[\w-]+$/.test(userId)) return this.describe(caller, kind, object);
      await db.deleteFrom('shares').where('object_kind', '=', kind).where('object_id', '=', object.id).where('user_id', '=', userId).execute();
      return this.describe(caller, kind, object);
    }
    if (!(await this.colleaguesAmong(caller.groupId, object.ownerUserId, [userId])).has(userId)) throw notAColleague('userId');
    await db.transaction().execute(async (trx) => {
      const updated = await trx.updateTable('shares').set({ access }).where('object_kind', '=', kind).where('object_id', '=', object.id).where('user_id', '=', userId).executeTakeFirst();
      if (updated.numUpdatedRows > 0n) return;
      await trx
        .insertInto('shares')
        .values({ id: randomUUID(), group_id: caller.groupId, object_kind: kind, object_id: object.id, user_id: userId, access, created_by: caller.userId, created_at: this.deps.now().toISOString() })
        .execute();
    });
    return this.describe(caller, kind, object);
  }

  /** The caller's own copy of an object they may see ('view' or more): a new row they own. */
  async clone(caller: Caller, kind: ShareKind, id: string): Promise<{ kind: ShareKind; id: string }> {
    await this.visible(caller, kind, id);
    const { db } = this.deps;
    const newId = randomUUID();
    const stamp = this.deps.now().toISOString();
    const scoped = { groupId: caller.groupId, id };
    switch (kind) {
      case 'template': {
        const row = await db.selectFrom('doc_templates').selectAll().where('group_id', '=', scoped.groupId).where('id', '=', id).executeTakeFirstOrThrow();
        await db.insertInto('doc_templates').values({ ...row, id: newId, owner_user_id: caller.userId, name: `${row.name}${COPY_SUFFIX}`, starter_key: null, created_at: stamp, updated_at: stamp }).execute();
        break;
      }
      case 'form': {
        const row = await db.selectFrom('doc_forms').selectAll().where('group_id', '=', scoped.groupId).where('id', '=', id).executeTakeFirstOrThrow();
        // A draft of its own with a new link: the copy is not live until its new owner publishes it.
        await db
          .insertInto('doc_forms')
          .values({ ...row, id: newId, owner_user_id: caller.userId, title: `${row.title}${COPY_SUFFIX}`, status: 'draft', public_id: randomBytes(24).toString('base64url'), created_at: stamp, updated_at: stamp, published_at: null })
          .execute();
        break;
      }
      case 'schedule': {
        const row = await db.selectFrom('flow_schedules').selectAll().where('group_id', '=', scoped.groupId).where('id', '=', id).executeTakeFirstOrThrow();
        await db.insertInto('flow_schedules').values({ ...row, id: newId, user_id: caller.userId, claimed_by: null, claimed_until: null, created_at: stamp, updated_at: stamp }).execute();
        break;
      }
      case 'flow-settings': {
        const row = await db.selectFrom('script_settings').selectAll().where('group_id', '=', scoped.groupId).where('id', '=', id).executeTakeFirstOrThrow();
        await db.insertInto('script_settings').values({ ...row, id: newId, user_id: caller.userId, name: `${row.name}${COPY_SUFFIX}`, created_at: stamp }).execute();
        break;
      }
      case 'macro':
        // Its current version as the copy's first, under the firm's cap (macros/store.ts).
        return { kind, id: await copyMacro(db, caller, id, this.deps.now()) };
    }
    return { kind, id: newId };
  }
}
