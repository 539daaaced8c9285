import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { LOCAL_PROCESS_NOT_DESKTOP_MESSAGE, flowDefinitionSchema } from './definition.ts';

/** The smallest valid flow: one section that launches. */
function flow(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    id: 'robot-de-prueba',
    name: 'Robot de prueba',
    description: '',
    group: 'Pruebas',
    instructions: '',
    usageRatio: 1,
    runsOn: 'desktop',
    flowInputs: [],
    sectionSetup: { builder: [{ ref: 'datos', template: 'TutorialSection', title: 'Datos', execution: true, builder: [] }] },
    ...overrides,
  };
}

describe('flowDefinitionSchema localProcess', () => {
  it('takes one of the FIE, altas and DEHÚ processes on a desktop flow, and keeps it', () => {
    for (const localProcess of ['get-fie-siltra', 'sync-fie-a3', 'sync-siltra-a3', 'sync-altas', 'sync-altas-a3', 'update-dehu-notifications']) {
      expect(z.parse(flowDefinitionSchema, flow({ localProcess })).localProcess).toBe(localProcess);
    }
    expect(z.parse(flowDefinitionSchema, flow({})).localProcess).toBeUndefined();
  });

  it('refuses a local process on a server flow, saying why, on the localProcess field', () => {
    const result = z.safeParse(flowDefinitionSchema, flow({ runsOn: 'server', localProcess: 'sync-fie-a3' }));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['localProcess'], message: LOCAL_PROCESS_NOT_DESKTOP_MESSAGE })]);
    expect(LOCAL_PROCESS_NOT_DESKTOP_MESSAGE).toMatch(/solo puede ir en un robot de escritorio/);
    // A server flow without one is as valid as ever.
    expect(z.safeParse(flowDefinitionSchema, flow({ runsOn: 'server' })).success).toBe(true);
  });

  it('refuses a process the desktop does not know', () => {
    expect(z.safeParse(flowDefinitionSchema, flow({ localProcess: 'sync-nominas' })).success).toBe(false);
    expect(z.safeParse(flowDefinitionSchema, flow({ localProcess: '' })).success).toBe(false);
  });
});
