import type { Robot } from '#shared/flows/robot.ts';
import type { DesktopRobot } from './_lib/desktop.ts';
import actualizarNotificacionesDehu from './actualizar-notificaciones-dehu/flow.json' with { type: 'json' };
import altasAutomaticasRed from './altas-automaticas-red/flow.json' with { type: 'json' };
import comprobarAltasRed from './comprobar-altas-red/flow.json' with { type: 'json' };
import descargarJustificantes from './descargar-justificantes/flow.json' with { type: 'json' };
import descargarJustificantesSettings from './descargar-justificantes/settings.json' with { type: 'json' };
import fieIncidenciasA3 from './fie-incidencias-a3/flow.json' with { type: 'json' };
import fieSiltraA3 from './fie-siltra-a3/flow.json' with { type: 'json' };
import obtenerFieSiltra from './obtener-fie-siltra/flow.json' with { type: 'json' };
import sincronizarAltasA3 from './sincronizar-altas-a3/flow.json' with { type: 'json' };
import sincronizarFieA3 from './sincronizar-fie-a3/flow.json' with { type: 'json' };
import validarIdentificadores from './validar-identificadores/flow.json' with { type: 'json' };

/**
 * The built-in flows the server loads at start (its catalogue). Each is a folder: flow.json (checked by
 * the server with shared/flows/definition.ts), robot.ts (loaded only when a run needs it) and an optional
 * template. Desktop flows (runsOn 'desktop') are in the catalogue too, but their robots run on a PC:
 * they have no loadRobot here and are listed again, with their robot, in desktopFlows. A desktop flow
 * with a localProcess (the FIE fetch and A3 sync, the altas' RED registration and A3 sync, the DEHÚ update) has no robot at all: the desktop app runs that process
 * (local-process-flows.ts tells the desktop which).
 */
export interface BuiltInFlow {
  /** The folder's flow.json as read; the server parses it with flowDefinitionSchema. */
  definition: unknown;
  /** The robot the server's worker runs; absent for desktop flows. */
  loadRobot?(): Promise<Robot>;
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
  { definition: descargarJustificantes },
  { definition: obtenerFieSiltra },
  { definition: sincronizarFieA3 },
  { definition: fieSiltraA3 },
  { definition: altasAutomaticasRed },
  { definition: sincronizarAltasA3 },
  { definition: actualizarNotificacionesDehu },
];


/**
 * A flow whose robot runs on the advisor's PC or the office's agent (main/robots/ runs it in a child
 * process): its id, its folder's settings.json (portal address and selectors; the installation's
 * overrides are applied by the runtime) and its robot. Local-process flows are not here: no robot.
 */
export interface DesktopFlow {
  id: string;
  settings: Record<string, unknown>;
  loadRobot(): Promise<DesktopRobot>;
}

export const desktopFlows: readonly DesktopFlow[] = [
  {
    id: descargarJustificantes.id,
    settings: descargarJustificantesSettings,
    loadRobot: async () => (await import('./descargar-justificantes/robot.ts')).default,
  },
];
