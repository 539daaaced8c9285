import { MACRO_RESERVED_INPUT_MESSAGE } from '#shared/api/macros.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import { macroDefinitionSchema } from '#shared/macros/definition.ts';
import { MACRO_DEFINITION_INPUT, MACRO_VERSION_INPUT, macroIdOfFlow, macroToFlow } from '#shared/macros/to-flow.ts';
import { validationError } from '../../http/errors.ts';
import type { CatalogueFlow, FlowCatalogue } from './catalogue.ts';

/** A firm's macro as a flow: its definition as the launcher sees it, and the macro version it runs. */
export interface MacroFlow extends CatalogueFlow {
  macro: MacroDefinition;
  version: number;
}

/** Where macro flows come from (the macros module). */
export interface MacroFlowSource {
  /** The firm's macro as a flow at its current version; with a user, only when they may see it. */
  flowOf(groupId: string, macroId: string, userId: string | null): Promise<MacroFlow | undefined>;
  /** The firm's macros the user may see, as flows, by name. */
  flowsFor(groupId: string, userId: string): Promise<MacroFlow[]>;
}

export function toMacroFlow(macroId: string, macro: MacroDefinition, version: number): MacroFlow {
  return { definition: macroToFlow(macroId, macro), templatePath: null, macro, version };
}

export function isMacroFlow(flow: CatalogueFlow): flow is MacroFlow {
  return 'macro' in flow;
}

/**
 * Every flow a firm may run: the built-in catalogue (the same for all) and the firm's own macros
 * ('macro-<id>', shared/macros/to-flow.ts), which live in the database and so are looked up per firm
 * and per user. Launching and scheduling ask it; a run's own flow comes from ofRun.
 */
export class FlowDirectory {
  constructor(
    readonly catalogue: FlowCatalogue,
    private readonly macros: MacroFlowSource | null = null,
  ) {}

  /** A flow the user may launch or schedule (any of the firm's when userId is null), or undefined. */
  async flowFor(groupId: string, flowId: string, userId: string | null): Promise<CatalogueFlow | undefined> {
    const macroId = macroIdOfFlow(flowId);
    if (macroId === null) return this.catalogue.get(flowId);
    return this.macros?.flowOf(groupId, macroId, userId);
  }

  /** The launcher's catalogue: the built-in flows, then the user's macros. */
  async flowsFor(groupId: string, userId: string): Promise<CatalogueFlow[]> {
    return [...this.catalogue.list(), ...((await this.macros?.flowsFor(groupId, userId)) ?? [])];
  }

  /**
   * The flow a run was launched as: a macro's run carries the version it launched in its inputs (so a
   * save or delete after the launch changes nothing about it); a built-in one is today's catalogue's.
   */
  ofRun(run: { flow_id: string; inputs: string }): CatalogueFlow | undefined {
    const macroId = macroIdOfFlow(run.flow_id);
    if (macroId === null) return this.catalogue.get(run.flow_id);
    const inputs = JSON.parse(run.inputs) as Record<string, unknown>;
    const macro = macroDefinitionSchema.safeParse(inputs[MACRO_DEFINITION_INPUT]);
    const version = inputs[MACRO_VERSION_INPUT];
    return macro.success && typeof version === 'number' ? toMacroFlow(macroId, macro.data, version) : undefined;
  }
}

/** The inputs only the server sets (a macro's definition and version): a caller sending one is refused, nothing written. */
export function refuseServerInputs(inputs: Readonly<Record<string, unknown>>, prefix = 'inputs'): void {
  const sent = [MACRO_DEFINITION_INPUT, MACRO_VERSION_INPUT].filter((key) => Object.hasOwn(inputs, key));
  if (sent.length > 0) throw validationError(sent.map((key) => ({ path: `${prefix}.${key}`, message: MACRO_RESERVED_INPUT_MESSAGE })));
}
