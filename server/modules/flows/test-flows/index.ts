import type { BuiltInFlow } from '../catalogue.ts';

/**
 * Flows for the server's own tests (never loaded by the app): a robot that can be told to succeed,
 * fail, crash, hang or run out of memory, one with a short time limit, and a desktop flow.
 */

const sections = (builder: unknown[]) => ({
  builder: [
    { ref: 'datos', template: 'InputComponents', title: 'Datos', execution: true, builder },
    { ref: 'resultado', template: 'OutputSection', title: 'Resultado', builder: [] },
  ],
});

export const TEST_FLOW_ID = 'robot-de-pruebas';
export const SHORT_FLOW_ID = 'robot-con-prisa';
export const DESKTOP_FLOW_ID = 'robot-de-escritorio';

const pruebas = {
  id: TEST_FLOW_ID,
  name: 'Robot de pruebas',
  description: 'Hace lo que se le pide',
  group: 'Pruebas',
  instructions: '## Pruebas',
  usageRatio: 2,
  usageMeasureUnit: 'fila|filas',
  runsOn: 'server',
  timeLimitSeconds: 60,
  flowInputs: [{ key: 'mode', type: 'Text' }],
  sectionSetup: sections([
    {
      key: 'mode',
      template: 'Dropdown',
      label: 'Qué hacer',
      required: true,
      validValues: ['ok', 'wait', 'crash', 'throw', 'fail', 'wrong-input', 'oom', 'oom-one-array', 'stream', 'stream-throw', 'stream-wait', 'stream-crash'].map((key) => ({ key, text: key })),
    },
    { key: 'nif', template: 'Text', label: 'NIF', validate: 'nienif', formatRequired: true },
    { key: 'copies', template: 'Number', label: 'Copias', config: { min: 1, max: 5 } },
    { key: 'workbook', template: 'FileUpload', label: 'Libro', config: { accept: '.xlsx,.csv' } },
    {
      key: 'columns',
      template: 'ColumnMapping',
      label: 'Columnas',
      config: { source: 'workbook', columns: [{ key: 'nif', label: 'NIF', validate: 'nienif', headerHints: ['nif'] }] },
    },
  ]),
};

const conPrisa = {
  ...pruebas,
  id: SHORT_FLOW_ID,
  name: 'Robot con prisa',
  timeLimitSeconds: 2,
  flowInputs: [],
  sectionSetup: sections([{ key: 'mode', template: 'Text', label: 'Qué hacer', required: true }]),
};

const escritorio = {
  ...pruebas,
  id: DESKTOP_FLOW_ID,
  name: 'Robot de escritorio',
  runsOn: 'desktop',
  flowInputs: [],
  sectionSetup: sections([{ key: 'certificate', template: 'Certificate', label: 'Certificado', config: { embedded: true } }]),
};

export const builtInFlows: readonly BuiltInFlow[] = [
  { definition: pruebas, loadRobot: async () => (await import('./robot.ts')).default, templateFile: 'server/modules/flows/test-flows/plantilla.csv' },
  { definition: conPrisa, loadRobot: async () => (await import('./robot.ts')).default },
  { definition: escritorio, loadRobot: async () => (await import('./robot.ts')).default },
];
