import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  MACRO_LIMIT_MESSAGE, MACRO_NOT_FOUND_MESSAGE, MACRO_OWNER_ONLY_DELETE_MESSAGE, MACRO_PAYMENT_REQUIRED_MESSAGE, MACRO_VERSION_NOT_FOUND_MESSAGE,
  MACRO_VIEW_ONLY_MESSAGE, MAX_MACRO_VERSIONS, MAX_MACROS_PER_FIRM,
  type Macro, type MacroCreateBody, type MacroSaveBody, type MacroSummary, type MacroVersion, type MacroVersionSummary,
} from '#shared/api/macros.ts';
import { deriveSubscription } from '#shared/billing/subscription.ts';
import { walkSteps, type MacroDefinition } from '#shared/macros/definition.ts';
import { macroFlowId, macroToFlow, MACRO_FLOW_GROUP } from '#shared/macros/to-flow.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import { toMacroFlow, type MacroFlow, type MacroFlowSource } from '../flows/directory.ts';
import { accessTo, canEdit, forgetShares, sharedWith, type Access } from '../share/access.ts';
import { findSubscriptionRecord } from '../subscriptions/service.ts';

type Caller = Pick<ActiveSession, 'userId' | 'groupId'>;
type Db = Kysely<Database> | Transaction<Database>;

export const macroNotFound = () => new HttpError(404, 'MACRO_NOT_FOUND', MACRO_NOT_FOUND_MESSAGE);
const versionNotFound = () => new HttpError(404, 'MACRO_VERSION_NOT_FOUND', MACRO_VERSION_NOT_FOUND_MESSAGE);
const forbidden = (message: string) => new HttpError(403, 'FORBIDDEN', message);
/** SmartBuilder is for paid plans (spec: /smartbuilder needs payment), the same rule the web app's PaidRouteGate applies. */
const paymentRequired = () => new HttpError(402, 'PAYMENT_REQUIRED', MACRO_PAYMENT_REQUIRED_MESSAGE);

const COPY_SUFFIX = ' (copia)';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const stepCount = (macro: MacroDefinition) => [...walkSteps(macro.steps)].length;

interface MacroRow {
  id: string;
  group_id: string;
  owner_user_id: string;
  name: string;
  description: string;
  current_version: number;
  steps: number;
  updated_at: string;
}

/**
 * The firm's row of table `flows` for a macro, kept in step with its current version: schedules check a
 * flow there, and the history shows its name. Inactive once the macro is deleted (old runs still name it).
 */
async function writeFlowRow(db: Db, macroId: string, macro: MacroDefinition, at: string): Promise<void> {
  const definition = macroToFlow(macroId, macro);
  const row = { name: definition.name, group_name: MACRO_FLOW_GROUP, runs_on: definition.runsOn, usage_ratio: definition.usageRatio, definition: JSON.stringify(definition), active: 1, updated_at: at };
  await db
    .insertInto('flows')
    .values({ id: definition.id, ...row, created_at: at })
    .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
    .execute();
}

/** A new macro of `ownerUserId` with its first version, in one transaction with its flow row; the firm's cap checked inside it. */
async function insertMacro(db: Kysely<Database>, caller: Caller, macro: MacroDefinition, note: string, at: string): Promise<string> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    const count = await trx.selectFrom('macros').select((eb) => eb.fn.countAll<number | string>().as('n')).where('group_id', '=', caller.groupId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_MACROS_PER_FIRM) throw new HttpError(409, 'MACRO_LIMIT', MACRO_LIMIT_MESSAGE);
    await trx
      .insertInto('macros')
      .values({ id, group_id: caller.groupId, owner_user_id: caller.userId, name: macro.name, description: macro.description, current_version: 1, steps: stepCount(macro), created_at: at, updated_at: at, deleted_at: null })
      .execute();
    await trx.insertInto('macro_versions').values({ macro_id: id, version: 1, definition: JSON.stringify(macro), created_by: caller.userId, created_at: at, note }).execute();
    await writeFlowRow(trx, id, macro, at);
  });
  return id;
}

/**
 * The caller's own copy of a macro they may see (share clone, kind 'macro'): its current version as the
 * copy's first, named '… (copia)'. The share module checked the caller's access.
 */
export async function copyMacro(db: Kysely<Database>, caller: Caller, id: string, now: Date): Promise<string> {
  const source = await db
    .selectFrom('macros')
    .innerJoin('macro_versions as v', (join) => join.onRef('v.macro_id', '=', 'macros.id').onRef('v.version', '=', 'macros.current_version'))
    .select('v.definition')
    .where('macros.group_id', '=', caller.groupId)
    .where('macros.id', '=', id)
    .where('macros.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!source) throw macroNotFound();
  const macro = JSON.parse(source.definition) as MacroDefinition;
  const name = `${macro.name.slice(0, 80 - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
  return insertMacro(db, caller, { ...macro, name }, `Copia de «${macro.name}»`, now.toISOString());
}

/**
 * Macros (issue 41): each firm's robots, versioned, shared with colleagues like templates (share kind
 * 'macro'), and the flows they run as ('macro-<id>', for the FlowDirectory). Every read is scoped to the
 * caller's firm, so another firm's id answers 404 like a missing one.
 */
export class Macros implements MacroFlowSource {
  constructor(private readonly deps: { db: Kysely<Database>; now: () => Date }) {}

  /** SmartBuilder's creating, importing and saving: a firm without an active subscription gets a 402. */
  private async requirePaidPlan(groupId: string): Promise<void> {
    const record = await findSubscriptionRecord(this.deps.db, groupId);
    if (!deriveSubscription(record, this.deps.now()).active) throw paymentRequired();
  }

  private async row(groupId: string, id: string): Promise<MacroRow | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.deps.db
      .selectFrom('macros')
      .select(['id', 'group_id', 'owner_user_id', 'name', 'description', 'current_version', 'steps', 'updated_at'])
      .where('group_id', '=', groupId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The macro and the caller's access; 404 when it is not the firm's or the caller may not see it. */
  private async visible(caller: Caller, id: string): Promise<{ row: MacroRow; access: Access }> {
    const row = await this.row(caller.groupId, id);
    const access = row ? await accessTo(this.deps.db, 'macro', { id: row.id, ownerUserId: row.owner_user_id }, caller.userId) : null;
    if (!row || !access) throw macroNotFound();
    return { row, access };
  }

  private async ownerNames(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.deps.db.selectFrom('users').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((user) => [user.id, user.name]));
  }

  private summary(row: MacroRow, access: Access, ownerName: string): MacroSummary {
    return {
      id: row.id,
      flowId: macroFlowId(row.id),
      name: row.name,
      description: row.description,
      version: Number(row.current_version),
      steps: Number(row.steps),
      runsOn: 'desktop',
      access,
      ownerName,
      updatedAt: row.updated_at,
    };
  }

  /** The caller's macros and those shared with them, by name. */
  async list(caller: Caller): Promise<MacroSummary[]> {
    const grants = await sharedWith(this.deps.db, 'macro', caller.userId);
    const rows = await this.visibleRows(caller, grants);
    const owners = await this.ownerNames(rows.map((row) => row.owner_user_id));
    return rows
      .map((row) => this.summary(row, row.owner_user_id === caller.userId ? 'owner' : (grants.get(row.id) ?? 'view'), owners.get(row.owner_user_id) ?? ''))
      .sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }

  private async visibleRows(caller: Caller, grants: ReadonlyMap<string, unknown>): Promise<MacroRow[]> {
    const shared = [...grants.keys()];
    return this.deps.db
      .selectFrom('macros')
      .select(['id', 'group_id', 'owner_user_id', 'name', 'description', 'current_version', 'steps', 'updated_at'])
      .where('group_id', '=', caller.groupId)
      .where('deleted_at', 'is', null)
      .where((eb) => (shared.length > 0 ? eb.or([eb('owner_user_id', '=', caller.userId), eb('id', 'in', shared)]) : eb('owner_user_id', '=', caller.userId)))
      .execute();
  }

  private async definitionOf(macroId: string, version: number): Promise<{ definition: MacroDefinition; row: { note: string; created_at: string; created_by: string | null } } | undefined> {
    const row = await this.deps.db.selectFrom('macro_versions').select(['definition', 'note', 'created_at', 'created_by']).where('macro_id', '=', macroId).where('version', '=', version).executeTakeFirst();
    return row ? { definition: JSON.parse(row.definition) as MacroDefinition, row } : undefined;
  }

  async get(caller: Caller, id: string): Promise<Macro> {
    const { row, access } = await this.visible(caller, id);
    const current = await this.definitionOf(row.id, Number(row.current_version));
    if (!current) throw macroNotFound();
    const owners = await this.ownerNames([row.owner_user_id]);
    return { ...this.summary(row, access, owners.get(row.owner_user_id) ?? ''), definition: current.definition, versions: await this.versionRows(row.id) };
  }

  private async versionRows(macroId: string): Promise<MacroVersionSummary[]> {
    const rows = await this.deps.db
      .selectFrom('macro_versions as v')
      .leftJoin('users as u', 'u.id', 'v.created_by')
      .select(['v.version', 'v.note', 'v.created_at', 'u.name'])
      .where('v.macro_id', '=', macroId)
      .orderBy('v.version', 'desc')
      .execute();
    return rows.map((version) => ({ version: Number(version.version), note: version.note, createdAt: version.created_at, createdBy: version.name ?? '' }));
  }

  async create(caller: Caller, body: MacroCreateBody): Promise<Macro> {
    // Recording and the scraper are the desktop's, open to every plan (a run is charged anyway);
    // building from nothing and importing are SmartBuilder's, like saving a new version.
    if (body.source === 'blank' || body.source === 'import') await this.requirePaidPlan(caller.groupId);
    const note = body.note || { recording: 'Grabado', scraper: 'Creado con el extractor', blank: 'Creado', import: 'Importado' }[body.source];
    const id = await insertMacro(this.deps.db, caller, body.definition, note, this.deps.now().toISOString());
    return this.get(caller, id);
  }

  /** A new version (owner or 'edit' access); the oldest beyond MAX_MACRO_VERSIONS are pruned. */
  async save(caller: Caller, id: string, body: MacroSaveBody): Promise<Macro> {
    const { row, access } = await this.visible(caller, id);
    if (!canEdit(access)) throw forbidden(MACRO_VIEW_ONLY_MESSAGE);
    await this.requirePaidPlan(caller.groupId);
    const at = this.deps.now().toISOString();
    const macro = body.definition;
    await this.deps.db.transaction().execute(async (trx) => {
      // The next number from the newest kept version: two saves at once cannot write the same one (primary key).
      const last = await trx.selectFrom('macro_versions').select((eb) => eb.fn.max('version').as('last')).where('macro_id', '=', row.id).executeTakeFirst();
      const version = Number(last?.last ?? 0) + 1;
      await trx.insertInto('macro_versions').values({ macro_id: row.id, version, definition: JSON.stringify(macro), created_by: caller.userId, created_at: at, note: body.note ?? '' }).execute();
      await trx
        .updateTable('macros')
        .set({ name: macro.name, description: macro.description, current_version: version, steps: stepCount(macro), updated_at: at })
        .where('id', '=', row.id)
        .execute();
      // At most MAX_MACRO_VERSIONS kept per macro: a run keeps the definition it ran in its inputs, so pruning loses no history.
      await trx.deleteFrom('macro_versions').where('macro_id', '=', row.id).where('version', '<=', version - MAX_MACRO_VERSIONS).execute();
      await writeFlowRow(trx, row.id, macro, at);
    });
    return this.get(caller, row.id);
  }

  /** Deleted by its owner only: its grants go, its schedules stop, its flow is no longer offered (old runs still name it). */
  async delete(caller: Caller, id: string): Promise<void> {
    const { row, access } = await this.visible(caller, id);
    if (access !== 'owner') throw forbidden(MACRO_OWNER_ONLY_DELETE_MESSAGE);
    const at = this.deps.now().toISOString();
    const flowId = macroFlowId(row.id);
    await this.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('macros').set({ deleted_at: at, updated_at: at }).where('id', '=', row.id).execute();
      const schedules = await trx.selectFrom('flow_schedules').select('id').where('group_id', '=', caller.groupId).where('flow_id', '=', flowId).execute();
      if (schedules.length > 0) {
        await trx.deleteFrom('shares').where('object_kind', '=', 'schedule').where('object_id', 'in', schedules.map((schedule) => schedule.id)).execute();
        await trx.deleteFrom('flow_schedules').where('group_id', '=', caller.groupId).where('flow_id', '=', flowId).execute();
      }
      await trx.updateTable('flows').set({ active: 0, updated_at: at }).where('id', '=', flowId).execute();
    });
    await forgetShares(this.deps.db, 'macro', row.id);
  }

  async versions(caller: Caller, id: string): Promise<MacroVersionSummary[]> {
    const { row } = await this.visible(caller, id);
    return this.versionRows(row.id);
  }

  async version(caller: Caller, id: string, version: number): Promise<MacroVersion> {
    const { row } = await this.visible(caller, id);
    const found = await this.definitionOf(row.id, version);
    if (!found) throw versionNotFound();
    const author = found.row.created_by ? (await this.ownerNames([found.row.created_by])).get(found.row.created_by) : undefined;
    return { macroId: row.id, version, note: found.row.note, createdAt: found.row.created_at, createdBy: author ?? '', definition: found.definition };
  }

  /** The current definition of a macro the caller may see, for its exported file. */
  async current(caller: Caller, id: string): Promise<MacroDefinition> {
    return (await this.get(caller, id)).definition;
  }

  // -------------------------------------------------------------------------------------------------
  // The flows macros run as (FlowDirectory)

  async flowOf(groupId: string, macroId: string, userId: string | null): Promise<MacroFlow | undefined> {
    const row = await this.row(groupId, macroId);
    if (!row) return undefined;
    if (userId !== null && !(await accessTo(this.deps.db, 'macro', { id: row.id, ownerUserId: row.owner_user_id }, userId))) return undefined;
    const version = Number(row.current_version);
    const current = await this.definitionOf(row.id, version);
    return current ? toMacroFlow(row.id, current.definition, version) : undefined;
  }

  async flowsFor(groupId: string, userId: string): Promise<MacroFlow[]> {
    const caller = { groupId, userId };
    const rows = (await this.visibleRows(caller, await sharedWith(this.deps.db, 'macro', userId))).sort((a, b) => a.name.localeCompare(b.name, 'es'));
    if (rows.length === 0) return [];
    const versions = await this.deps.db
      .selectFrom('macro_versions as v')
      .innerJoin('macros as m', (join) => join.onRef('m.id', '=', 'v.macro_id').onRef('m.current_version', '=', 'v.version'))
      .select(['v.macro_id', 'v.version', 'v.definition'])
      .where('m.group_id', '=', groupId)
      .where('v.macro_id', 'in', rows.map((row) => row.id))
      .execute();
    const byId = new Map(versions.map((version) => [version.macro_id, version]));
    return rows.flatMap((row) => {
      const version = byId.get(row.id);
      return version ? [toMacroFlow(row.id, JSON.parse(version.definition) as MacroDefinition, Number(version.version))] : [];
    });
  }
}
