import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { flowDefinitionSchema } from '#shared/flows/definition.ts';
import { builtInFlows } from '../../../resources/flows/index.ts';
import { emailResultInputsOf, historyLink } from './producers.ts';

describe('mail producers', () => {
  it("finds each built-in flow's 'Enviar resultado por email' input by its template, not by a fixed key", () => {
    const definitions = builtInFlows.map((flow) => z.parse(flowDefinitionSchema, flow.definition));
    expect(emailResultInputsOf(definitions)).toEqual(new Map([['validar-identificadores', 'emailResult'], ['fie-incidencias-a3', 'emailResult']]));
    const renamed = definitions.filter((definition) => definition.id === 'validar-identificadores').map((definition) => ({
      ...definition,
      sectionSetup: { ...definition.sectionSetup, builder: definition.sectionSetup.builder.map((section) => ({ ...section, builder: section.builder.map((input) => (input.template === 'EmailResult' ? { ...input, key: 'enviarCorreo' } : input)) })) },
    }));
    expect(emailResultInputsOf(renamed)).toEqual(new Map([['validar-identificadores', 'enviarCorreo']]));
  });

  it("links a notice to the history filtered to the robot's scheduled runs of that Madrid day", () => {
    // 23:30 UTC on 31 March is 1 April in Madrid (summer time).
    expect(historyLink('https://app.test', { flow_id: 'validar-identificadores', finished_at: '2026-03-31T23:30:00.000Z' })).toBe(
      'https://app.test/flows?robot=validar-identificadores&tipo=scheduled&desde=2026-04-01&hasta=2026-04-01',
    );
  });
});
