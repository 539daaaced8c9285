import type { FlowDefinition, FlowInputDefinition } from '../flows/definition.ts';
import type { MacroDefinition, MacroInput } from './definition.ts';

/**
 * A stored macro as the flow platform runs it: a desktop flow whose launcher asks for the macro's
 * inputs, charged per run or per workbook row, shown under 'Mis robots'. The flow id is 'macro-<id>',
 * so runs, schedules and the history name it like any built-in flow.
 */

export const MACRO_FLOW_PREFIX = 'macro-';
export const MACRO_FLOW_GROUP = 'Mis robots';
/** The run input that carries the macro's definition to the player (set by the server at launch, never by the user). */
export const MACRO_DEFINITION_INPUT = '__macro';
/** The run input that carries the macro's version number (the history shows which one ran). */
export const MACRO_VERSION_INPUT = '__macroVersion';

export function macroFlowId(macroId: string): string {
  return `${MACRO_FLOW_PREFIX}${macroId.toLowerCase()}`;
}

/** The macro id of a flow id, or null for a built-in flow. */
export function macroIdOfFlow(flowId: string): string | null {
  return flowId.startsWith(MACRO_FLOW_PREFIX) ? flowId.slice(MACRO_FLOW_PREFIX.length) : null;
}

const TEMPLATE_OF: Record<MacroInput['kind'], FlowInputDefinition['template']> = {
  text: 'Text',
  date: 'Date',
  certificate: 'Certificate',
  workbook: 'FileUpload',
  file: 'FileUpload',
};

function inputDefinition(input: MacroInput, order: number): FlowInputDefinition {
  const config =
    input.kind === 'workbook' ? { accept: '.xlsx,.csv', multiple: false } : input.kind === 'file' ? { multiple: false } : undefined;
  return {
    key: input.key,
    template: TEMPLATE_OF[input.kind],
    label: input.label,
    ...(input.help !== undefined && { help: input.help }),
    required: input.required,
    order,
    ...(config !== undefined && { config }),
  };
}

export function macroToFlow(macroId: string, macro: MacroDefinition): FlowDefinition {
  const perRow = macro.charge.per === 'row';
  const cost = macro.charge.slans === 0 ? 'Sin coste.' : `Coste: ${macro.charge.slans} slan${macro.charge.slans === 1 ? '' : 's'} por ${perRow ? 'fila' : 'ejecución'}.`;
  return {
    id: macroFlowId(macroId),
    name: macro.name,
    description: macro.description || 'Robot creado por tu despacho.',
    group: MACRO_FLOW_GROUP,
    limits: macro.certificate ? 'Necesita el certificado instalado en el PC o en un equipo compartido del despacho.' : 'Se ejecuta en la aplicación de escritorio o en un equipo compartido del despacho.',
    instructions: `## ${macro.name}\n\n${macro.description}\n\nRobot creado por tu despacho: empieza en ${macro.startUrl} y sigue sus pasos en el navegador del robot.\n\n${cost}`,
    usageRatio: macro.charge.slans,
    usageMeasureUnit: perRow ? 'fila|filas' : 'ejecución|ejecuciones',
    runsOn: 'desktop',
    timeLimitSeconds: macro.timeLimitSeconds,
    flowInputs: macro.inputs.map((input) => ({ key: input.key, type: TEMPLATE_OF[input.kind] })),
    sectionSetup: {
      resetTo: 'datos',
      builder: [
        {
          ref: 'datos',
          template: 'InputComponents',
          title: macro.inputs.length > 0 ? 'Datos del robot' : 'Lanzar el robot',
          subtitle: macro.inputs.length > 0 ? 'Lo que el robot necesita para esta ejecución' : 'Este robot no necesita datos: lánzalo o prográmalo',
          execution: true,
          scheduler: true,
          builder: macro.inputs.map((input, index) => inputDefinition(input, index + 1)),
        },
        { ref: 'ejecutando', template: 'LoadingSection', title: `Ejecutando ${macro.name}`, params: { text: 'El robot está siguiendo sus pasos en el navegador…' }, builder: [] },
        { ref: 'resultado', template: 'OutputSection', title: 'Robot terminado', subtitle: 'Lo que el robot ha copiado y descargado', builder: [] },
        { ref: 'error', template: 'ErrorSection', title: 'El robot no ha podido terminar', backTo: 'datos', builder: [] },
      ],
    },
  };
}
