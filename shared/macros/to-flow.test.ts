import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { flowDefinitionProblems, flowDefinitionSchema } from '../flows/definition.ts';
import type { MacroDefinition } from './definition.ts';
import { macroFlowId, macroIdOfFlow, macroToFlow } from './to-flow.ts';

const macro: MacroDefinition = {
  schemaVersion: 1,
  name: 'Consulta de vida laboral',
  description: 'Descarga la vida laboral de cada NIF',
  startUrl: 'https://portal.example/',
  inputs: [
    { key: 'certificado', label: 'Certificado', kind: 'certificate', required: true },
    { key: 'hoja', label: 'Trabajadores', kind: 'workbook', required: true, help: 'Una fila por trabajador' },
  ],
  certificate: { input: 'certificado', origins: ['https://portal.example'] },
  steps: [{ id: 'a', type: 'forEachRow', input: 'hoja', steps: [{ id: 'b', type: 'fill', target: 'internal:label="NIF"i', value: { kind: 'column', column: 'NIF' } }] }],
  charge: { per: 'row', slans: 2 },
  outputFileName: 'resultado.xlsx',
  timeLimitSeconds: 900,
};

describe('a macro as a flow', () => {
  it('is a valid desktop flow whose launcher asks for its inputs and charges per row', () => {
    const flow = macroToFlow('3F2A-9C', macro);
    const parsed = z.safeParse(flowDefinitionSchema, flow);
    expect(parsed.success).toBe(true);
    if (parsed.success) expect(flowDefinitionProblems(parsed.data)).toEqual([]);
    expect(flow).toMatchObject({ id: 'macro-3f2a-9c', runsOn: 'desktop', usageRatio: 2, usageMeasureUnit: 'fila|filas', timeLimitSeconds: 900, group: 'Mis robots' });
    const inputs = flow.sectionSetup.builder[0]?.builder ?? [];
    expect(inputs.map((input) => [input.key, input.template, input.required])).toEqual([['certificado', 'Certificate', true], ['hoja', 'FileUpload', true]]);
    expect(inputs[1]?.config).toEqual({ accept: '.xlsx,.csv', multiple: false });
    expect(flow.instructions).toContain('Coste: 2 slans por fila.');
  });

  it('names its flow from the macro id and back', () => {
    expect(macroIdOfFlow(macroFlowId('abc'))).toBe('abc');
    expect(macroIdOfFlow('descargar-justificantes')).toBeNull();
  });
});
