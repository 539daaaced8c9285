import type { FlowLog, FlowLogDetail, FlowSummary, ScheduledFlow } from '#shared/api/flows.ts';
import type { FlowDefinition } from '#shared/flows/definition.ts';

/** A finished manual run of a known robot, for tests; override what the test is about. */
export function flowLog(overrides: Partial<FlowLog> = {}): FlowLog {
  return {
    _id: 'run-1',
    browserFlow: { _id: 'validar-identificadores', name: 'Validar identificadores' },
    result: 'Success',
    state: 'finished',
    stoppedByUser: false,
    createAt: '2025-07-14T07:05:00.000Z',
    finishedAt: '2025-07-14T07:06:00.000Z',
    scheduled: false,
    browserFlowSchedule: null,
    successfulIterations: 10,
    totalIterations: 10,
    usageHistory: [{ usageUnits: 3, usageRatio: 1 }],
    outputFileNames: [],
    outputFolder: null,
    user: { email: 'ana@asesoria.es', name: 'Ana' },
    machine: null,
    remote: false,
    ...overrides,
  };
}

/**
 * A run's detail; its log is one whole page and its files (outputFileNames) downloadable until
 * 2025-08-13 unless the overrides say otherwise.
 */
export function flowLogDetail(overrides: Partial<FlowLogDetail> = {}): FlowLogDetail {
  const lines = overrides.logStreams ?? [];
  const outputFiles = (overrides.outputFileNames ?? []).map((name) => ({ name, expiresAt: '2025-08-13T07:05:00.000Z', expired: false }));
  return { ...flowLog(), outputFiles, logStreams: lines, logTotal: lines.length, logHasMore: false, logNext: lines.length > 0 ? lines.length - 1 : null, ...overrides };
}

export const validarIdentificadores: FlowSummary = {
  id: 'validar-identificadores',
  name: 'Validar identificadores',
  description: 'Comprueba los NIF/NIE, NAF, IBAN y CCC de un listado de trabajadores.',
  group: 'Laboral',
  limits: 'Excel, ODS o CSV; se comprueba la primera hoja.',
  usageRatio: 1,
  usageMeasureUnit: 'bloque de 100 filas|bloques de 100 filas',
  runsOn: 'server',
  hasTemplate: true,
  hasInstructions: true,
};

export const fieA3: FlowSummary = {
  id: 'fie-a3',
  name: 'FIE a incidencias A3',
  description: 'Convierte los ficheros FIE de SILTRA en incidencias para A3.',
  group: 'Laboral',
  usageRatio: 0.5,
  usageMeasureUnit: 'entrada|entradas',
  runsOn: 'server',
  hasTemplate: false,
  hasInstructions: false,
};

export const modelo111: FlowSummary = {
  id: 'modelo-111',
  name: 'Modelo 111',
  description: 'Presenta la declaración de retenciones del trimestre en la sede de la AEAT.',
  group: 'Fiscal',
  usageRatio: 2,
  usageMeasureUnit: 'declaración|declaraciones',
  runsOn: 'desktop',
  hasTemplate: false,
  hasInstructions: false,
};

export function flowDefinition(overrides: Partial<FlowDefinition> = {}): FlowDefinition {
  return {
    id: 'validar-identificadores',
    name: 'Validar identificadores',
    description: validarIdentificadores.description,
    group: 'Laboral',
    instructions: '## Cómo se usa\n\nSube el **listado**. Más en [la guía](https://autoasesor.es/guia).\n\n<img src=x onerror=alert(1)>',
    usageRatio: 1,
    usageMeasureUnit: 'bloque de 100 filas|bloques de 100 filas',
    template: 'plantilla.xlsx',
    runsOn: 'server',
    timeLimitSeconds: 120,
    flowInputs: [{ key: 'workbook', type: 'FileUpload' }],
    sectionSetup: {
      builder: [
        { ref: 'intro', template: 'TutorialSection', title: 'Antes de empezar', builder: [] },
        {
          ref: 'datos',
          template: 'InputComponents',
          title: 'Listado',
          execution: true,
          builder: [
            { key: 'columns', template: 'ColumnMapping', label: 'Columnas a comprobar', order: 2, config: { source: 'workbook' } },
            { key: 'workbook', template: 'FileUpload', label: 'Libro de trabajadores', help: 'Excel, ODS o CSV.', required: true, order: 1 },
            { key: 'secret', template: 'Text', label: 'Oculta', hidden: true },
          ],
        },
        { ref: 'fin', template: 'OutputSection', title: 'Resultado', builder: [] },
      ],
    },
    ...overrides,
  };
}

export function scheduledFlow(overrides: Partial<ScheduledFlow> = {}): ScheduledFlow {
  return {
    _id: 'sched-1',
    browserFlowName: 'Validar identificadores',
    browserFlow: 'validar-identificadores',
    localProcess: null,
    scheduledDate: '2025-03-03T08:30:00.000Z',
    repeat: false,
    every: 1,
    interval: 'days',
    user: { email: 'ana@asesoria.es', name: 'Ana' },
    machine: null,
    flowInputs: {},
    sendOutputToServer: true,
    updatedAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}
