import type { FlowDefinition, FlowInputDefinition, Section } from '#shared/flows/definition.ts';

/** A flow shaped like the built-in 'Validar identificadores': a tutorial, the inputs that launch, then the run's sections. */
export function workbookFlow(overrides: Partial<FlowDefinition> = {}, launchSection: Partial<Section> = {}): FlowDefinition {
  return {
    id: 'validar-identificadores',
    name: 'Validar identificadores',
    description: 'Comprueba NIF/NIE, NAF, IBAN y CCC de una hoja de trabajadores.',
    group: 'Laboral',
    limits: 'Hasta 10.000 filas por archivo',
    instructions: '# Cómo usarlo\n\nSube la hoja de trabajadores. [Guía](https://example.com/guia)',
    usageRatio: 1,
    usageMeasureUnit: '100 filas',
    runsOn: 'server',
    timeLimitSeconds: 120,
    flowInputs: [{ key: 'workbook', type: 'file' }],
    sectionSetup: {
      builder: [
        { ref: 'intro', template: 'TutorialSection', title: 'Antes de empezar', params: { markdown: 'Lee esto' }, builder: [] },
        {
          ref: 'datos', template: 'InputComponents', title: 'Tus datos', execution: true, scheduler: true,
          builder: [
            { key: 'workbook', template: 'FileUpload', label: 'Hoja de trabajadores', required: true, config: { accept: '.xlsx,.csv' } },
            {
              key: 'columns', template: 'ColumnMapping', label: 'Columnas', required: true,
              config: { source: 'workbook', columns: [
                { key: 'nif', label: 'NIF/NIE', validate: 'nienif', headerHints: ['nif', 'dni', 'nie', 'documento'] },
                { key: 'naf', label: 'NAF', validate: 'naf', headerHints: ['naf', 'seguridad social'] },
              ] },
            },
            { key: 'reference', template: 'Text', label: 'NIF de la empresa', validate: 'nif' },
          ],
          ...launchSection,
        },
        { ref: 'running', template: 'LoadingSection', title: 'Validando', hidden: true, builder: [] },
        { ref: 'result', template: 'OutputSection', title: 'Resultado', hidden: true, builder: [] },
        { ref: 'failed', template: 'ErrorSection', title: 'Algo ha fallado', hidden: true, builder: [] },
      ],
    },
    ...overrides,
  };
}

/** A flow of plain inputs over two steps (no uploads), billed per entry. */
export function formFlow(overrides: Partial<FlowDefinition> = {}): FlowDefinition {
  return {
    id: 'alta-rapida',
    name: 'Alta rápida',
    description: 'Prepara un alta.',
    group: 'Laboral',
    instructions: '',
    usageRatio: 2,
    usageMeasureUnit: 'entrada|entradas',
    runsOn: 'server',
    timeLimitSeconds: 120,
    flowInputs: [],
    sectionSetup: {
      builder: [
        {
          ref: 'persona', template: 'InputComponents', title: 'Trabajador',
          builder: [
            { key: 'nif', template: 'Text', label: 'NIF', required: true, validate: 'nienif' },
            { key: 'nombre', template: 'Text', label: 'Nombre' },
          ],
        },
        {
          ref: 'contrato', template: 'InputComponents', title: 'Contrato', execution: true, scheduler: true,
          builder: [
            { key: 'inicio', template: 'Date', label: 'Fecha de inicio', required: true },
            { key: 'horas', template: 'Number', label: 'Horas semanales' },
            { key: 'tipo', template: 'Dropdown', label: 'Tipo de contrato', required: true, validValues: [{ key: '100', text: 'Indefinido' }, { key: '401', text: 'Temporal' }] },
            { key: 'acepto', template: 'Checkbox', label: 'He revisado los datos', required: true },
            // Optional here, so the launches below need no certificate; LauncherPage.certificate.test.tsx requires one.
            { key: 'certificado', template: 'Certificate', label: 'Certificado' },
            { key: 'origen', template: 'Text', label: 'Origen', hidden: true, value: 'launcher' },
          ],
        },
        { ref: 'trabajando', template: 'LoadingSection', title: 'Trabajando', hidden: true, builder: [] },
        { ref: 'hecho', template: 'OutputSection', title: 'Hecho', hidden: true, builder: [] },
        { ref: 'fallo', template: 'ErrorSection', title: 'Fallo', hidden: true, builder: [] },
      ],
    },
    ...overrides,
  };
}

/**
 * The form flow with the optional 'Enviar resultado por email' input the server flows get (issue 25) on
 * its launching step, after the other inputs; `overrides` change the input itself.
 */
export function emailResultFlow(overrides: Partial<FlowInputDefinition> = {}): FlowDefinition {
  const flow = formFlow();
  const launch = flow.sectionSetup.builder.find((section) => section.ref === 'contrato')!;
  launch.builder.push({ key: 'emailResult', template: 'EmailResult', label: 'Enviar resultado por email', ...overrides });
  flow.flowInputs.push({ key: 'emailResult', type: 'emailResult' });
  return flow;
}
