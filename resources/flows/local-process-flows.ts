import { FLOW_LOCAL_PROCESSES, type FlowLocalProcess } from '#shared/flows/definition.ts';
import actualizarNotificacionesDehu from './actualizar-notificaciones-dehu/flow.json' with { type: 'json' };
import altasAutomaticasRed from './altas-automaticas-red/flow.json' with { type: 'json' };
import fieSiltraA3 from './fie-siltra-a3/flow.json' with { type: 'json' };
import obtenerFieSiltra from './obtener-fie-siltra/flow.json' with { type: 'json' };
import sincronizarAltasA3 from './sincronizar-altas-a3/flow.json' with { type: 'json' };
import sincronizarFieA3 from './sincronizar-fie-a3/flow.json' with { type: 'json' };

/**
 * The catalogue's flows that stand for a desktop local process instead of a robot. Kept apart from
 * index.ts so the desktop's main bundle reads these definitions without pulling in the server's robots
 * (builtInFlows' loadRobot imports), which the desktop build leaves out.
 */
export const localProcessFlowDefinitions: readonly unknown[] = [obtenerFieSiltra, sincronizarFieA3, fieSiltraA3, altasAutomaticasRed, sincronizarAltasA3, actualizarNotificacionesDehu];

/**
 * The local process a catalogue flow stands for (its definition's localProcess), or null for a flow
 * with a robot. The desktop gives it to a run whose lease does not say (a launch from an older server),
 * so such a flow never goes looking for a robot it does not have.
 */
export function flowLocalProcess(flowId: string): FlowLocalProcess | null {
  for (const definition of localProcessFlowDefinitions) {
    const { id, localProcess } = definition as { id?: unknown; localProcess?: unknown };
    if (id !== flowId) continue;
    return (FLOW_LOCAL_PROCESSES as readonly unknown[]).includes(localProcess) ? (localProcess as FlowLocalProcess) : null;
  }
  return null;
}
