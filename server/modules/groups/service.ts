import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { groupConfigSchema, type Group, type GroupConfig } from '#shared/domain/group.ts';
import type { Database, GroupRow } from '../../db/schema.ts';

/** A new firm starts with every optional route closed and nothing hidden. */
export const DEFAULT_GROUP_CONFIG: GroupConfig = { allowed_routes: [], hidden_routes: [] };

export function toGroup(row: GroupRow): Group {
  const parsed = groupConfigSchema.safeParse(JSON.parse(row.config));
  return { id: row.id, name: row.name, config: parsed.success ? parsed.data : DEFAULT_GROUP_CONFIG };
}

export async function createGroup(db: Kysely<Database>, name: string, now: Date, config: GroupConfig = DEFAULT_GROUP_CONFIG): Promise<Group> {
  const row: GroupRow = { id: randomUUID(), name, config: JSON.stringify(groupConfigSchema.parse(config)), created_at: now.toISOString() };
  await db.insertInto('groups').values(row).execute();
  return toGroup(row);
}

export async function findGroup(db: Kysely<Database>, groupId: string): Promise<Group | null> {
  const row = await db.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirst();
  return row ? toGroup(row) : null;
}

/** Replaces the keys given in `changes` of a group's config (the rest stays). */
export async function updateGroupConfig(db: Kysely<Database>, groupId: string, changes: Partial<GroupConfig>): Promise<Group | null> {
  const group = await findGroup(db, groupId);
  if (!group) return null;
  const config = groupConfigSchema.parse({ ...group.config, ...changes });
  await db.updateTable('groups').set({ config: JSON.stringify(config) }).where('id', '=', groupId).execute();
  return { ...group, config };
}
