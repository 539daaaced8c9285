import type { Robot } from '#shared/flows/robot.ts';
import comprobarAltasRed from './comprobar-altas-red/flow.json' with { type: 'json' };
import fieIncidenciasA3 from './fie-incidencias-a3/flow.json' with { type: 'json' };
import validarIdentificadores from './validar-identificadores/flow.json' with { type: 'json' };

/**
 * The built-in flows the server loads at start. Each is a folder: flow.json (checked by the server with
 * shared/flows/definition.ts), robot.ts (loaded only when a run needs it) and an optional template.
 */
export interface BuiltInFlow {
  /** The folder's flow.json as read; the server parses it with flowDefinitionSchema. */
  definition: unknown;
  loadRobot(): Promise<Robot>;
  /** The template workbook's path from the repository root, when the flow has one. */
  templateFile?: string;
}

export const builtInFlows: readonly BuiltInFlow[] = [
  {
    definition: validarIdentificadores,
    loadRobot: async () => (await import('./validar-identificadores/robot.ts')).default,
    templateFile: 'resources/flows/validar-identificadores/plantilla.xlsx',
  },
  {
    definition: fieIncidenciasA3,
    loadRobot: async () => (await import('./fie-incidencias-a3/robot.ts')).default,
  },
  {
    definition: comprobarAltasRed,
    loadRobot: async () => (await import('./comprobar-altas-red/robot.ts')).default,
    templateFile: 'resources/flows/comprobar-altas-red/plantilla.xlsx',
  },
];
