import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import { toFieldIssues } from '#shared/api/errors.ts';
import type { FlowSummary } from '#shared/api/flows.ts';
import { flowDefinitionProblems, flowDefinitionSchema, type FlowDefinition } from '#shared/flows/definition.ts';
import type { Robot } from '#shared/flows/robot.ts';
import { MACRO_FLOW_PREFIX } from '#shared/macros/to-flow.ts';
import type { Database } from '../../db/schema.ts';

/** A flow folder as resources/flows/index.ts lists it (the robot is loaded only when a run needs it). */
export interface BuiltInFlow {
  /** The folder's flow.json as read; parsed here with flowDefinitionSchema. */
  definition: unknown;
  /** The robot the worker runs; desktop flows (runsOn 'desktop') have none: they run on a machine, never here. */
  loadRobot?(): Promise<Robot>;
  /** The template workbook's path from the repository root (or absolute). */
  templateFile?: string;
}

export interface CatalogueFlow {
  definition: FlowDefinition;
  /** Absolute path of the template workbook, or null when the flow offers none. */
  templatePath: string | null;
}

/**
 * The repository root, found from this file whether it runs as source (server/modules/flows/) or
 * bundled (dist/server/index.js): template paths are given from there.
 */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Parses one flow; a bad definition stops the server with a Spanish error that names the flow. */
function parseFlow(flow: BuiltInFlow, index: number): FlowDefinition {
  const raw = flow.definition as { id?: unknown } | null;
  const name = typeof raw?.id === 'string' ? raw.id : `nº ${index + 1}`;
  const parsed = z.safeParse(flowDefinitionSchema, flow.definition);
  const problems = parsed.success
    ? flowDefinitionProblems(parsed.data)
    : toFieldIssues(parsed.error).map((issue) => `${issue.path}: ${issue.message}`);
  if (!parsed.success || problems.length > 0) {
    throw new Error(`La definición del robot "${name}" no es válida: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The flows this server offers, checked once at start and read from memory afterwards. */
export class FlowCatalogue {
  private readonly flows: ReadonlyMap<string, CatalogueFlow>;

  constructor(builtIn: readonly BuiltInFlow[], root = repositoryRoot()) {
    const flows = new Map<string, CatalogueFlow>();
    builtIn.forEach((flow, index) => {
      const definition = parseFlow(flow, index);
      if (flows.has(definition.id)) throw new Error(`Hay dos robots con el mismo id: "${definition.id}"`);
      // 'macro-<id>' names a firm's own robot (flows/directory.ts): a built-in one could shadow it.
      if (definition.id.startsWith(MACRO_FLOW_PREFIX)) throw new Error(`El id del robot "${definition.id}" no puede empezar por "${MACRO_FLOW_PREFIX}"`);
      const template = flow.templateFile;
      flows.set(definition.id, { definition, templatePath: template ? (isAbsolute(template) ? template : join(root, template)) : null });
    });
    this.flows = flows;
  }

  get(id: string): CatalogueFlow | undefined {
    return this.flows.get(id);
  }

  list(): CatalogueFlow[] {
    return [...this.flows.values()];
  }

  ids(): string[] {
    return [...this.flows.keys()];
  }
}

export function toFlowSummary({ definition, templatePath }: CatalogueFlow): FlowSummary {
  return {
    id: definition.id,
    name: definition.name,
    description: definition.description,
    group: definition.group,
    ...(definition.limits !== undefined && { limits: definition.limits }),
    usageRatio: definition.usageRatio,
    usageMeasureUnit: definition.usageMeasureUnit,
    runsOn: definition.runsOn,
    hasTemplate: templatePath !== null,
    hasInstructions: definition.instructions.trim() !== '' || definition.instructionsURL !== undefined,
  };
}

/**
 * Keeps table `flows` in step with the catalogue: every loaded flow upserted active, every row whose
 * folder is gone kept (old runs name it) but marked inactive. Idempotent, so several servers may run it.
 * Firms' macros' rows ('macro-<id>') are the macros module's, left alone.
 */
export async function syncCatalogue(db: Kysely<Database>, catalogue: FlowCatalogue, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    for (const { definition } of catalogue.list()) {
      const row = {
        name: definition.name,
        group_name: definition.group,
        runs_on: definition.runsOn,
        usage_ratio: definition.usageRatio,
        definition: JSON.stringify(definition),
        active: 1,
        updated_at: at,
      };
      await trx
        .insertInto('flows')
        .values({ id: definition.id, ...row, created_at: at })
        .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
        .execute();
    }
    const ids = catalogue.ids();
    let gone = trx.updateTable('flows').set({ active: 0, updated_at: at }).where('active', '=', 1).where('id', 'not like', `${MACRO_FLOW_PREFIX}%`);
    if (ids.length > 0) gone = gone.where('id', 'not in', ids);
    await gone.execute();
  });
}
