import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_ROUTE_CHOICES, HIDEABLE_ROUTES, OPT_IN_ROUTES, type RouteSettings } from '#shared/api/groups.ts';
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

/** Renames the firm (its owner's choice in Mi cuenta); false when it no longer exists. */
export async function renameFirm(db: Kysely<Database>, groupId: string, name: string): Promise<boolean> {
  const result = await db.updateTable('groups').set({ name }).where('id', '=', groupId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Replaces the keys given in `changes` of a group's config (the rest stays). */
export async function updateGroupConfig(db: Kysely<Database>, groupId: string, changes: Partial<GroupConfig>): Promise<Group | null> {
  const group = await findGroup(db, groupId);
  if (!group) return null;
  const config = groupConfigSchema.parse({ ...group.config, ...changes });
  await db.updateTable('groups').set({ config: JSON.stringify(config) }).where('id', '=', groupId).execute();
  return { ...group, config };
}

/**
 * The firm's screen settings (issue 40 §4) as the settings screen shows them: the stored lists kept to
 * the screens the app knows (an old or hand-edited value never reaches the form), '/home' when unset.
 */
export function routeSettingsOf(config: GroupConfig): RouteSettings {
  const hidden = new Set<string>(config.hidden_routes);
  const allowed = new Set<string>(config.allowed_routes);
  const defaultRoute = DEFAULT_ROUTE_CHOICES.find((route) => route === config.defaultRoute) ?? '/home';
  return {
    hidden_routes: HIDEABLE_ROUTES.filter((route) => hidden.has(route)),
    allowed_routes: OPT_IN_ROUTES.filter((route) => allowed.has(route)),
    defaultRoute,
  };
}

/** Whether the firm turned an opt-in screen on (allowed_routes lists it). */
export async function firmAllowsRoute(db: Kysely<Database>, groupId: string, route: (typeof OPT_IN_ROUTES)[number]): Promise<boolean> {
  const group = await findGroup(db, groupId);
  return group !== null && group.config.allowed_routes.includes(route);
}

/** Whether the user is their firm's owner (only the owner changes the firm's settings). */
export async function isFirmOwner(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
  return row?.role === 'owner';
}

/** Writes the screen settings into the firm's config, keeping its other keys (company_name, currency…). */
export async function updateRouteSettings(db: Kysely<Database>, groupId: string, settings: RouteSettings): Promise<RouteSettings | null> {
  const group = await updateGroupConfig(db, groupId, {
    hidden_routes: [...new Set(settings.hidden_routes)],
    allowed_routes: [...new Set(settings.allowed_routes)],
    defaultRoute: settings.defaultRoute,
  });
  return group ? routeSettingsOf(group.config) : null;
}
