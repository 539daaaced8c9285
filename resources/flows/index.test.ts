import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowDefinitionProblems, flowDefinitionSchema, type FlowDefinition } from '#shared/flows/definition.ts';
import { detectColumns } from './_lib/columns.ts';
import { firstSheetTable, readWorkbook } from './_lib/workbook.ts';
import { builtInFlows, desktopFlows } from './index.ts';
import { flowLocalProcess, localProcessFlowDefinitions } from './local-process-flows.ts';

const repoRoot = new URL('../../', import.meta.url);
const flowFolders = readdirSync(new URL('./', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`./${entry.name}/flow.json`, import.meta.url)))
  .map((entry) => entry.name);

const parsed = builtInFlows.map((flow) => ({ flow, definition: flowDefinitionSchema.parse(flow.definition) }));

describe('built-in flows registry', () => {
  it('lists every folder with a flow.json, once, under its folder name', () => {
    expect(parsed.map(({ definition }) => definition.id).sort()).toEqual([...flowFolders].sort());
    expect(flowFolders.length).toBeGreaterThanOrEqual(1);
  });

  it.each(parsed.map(({ flow, definition }) => [definition.id, flow] as const))('%s: the definition is valid, and its robot is where it runs', (id, flow) => {
    const result = flowDefinitionSchema.safeParse(flow.definition);
    expect(result.success).toBe(true);
    const definition = result.data as FlowDefinition;
    expect(flowDefinitionProblems(definition)).toEqual([]);
    // A server flow's robot is loaded by the server's worker; a desktop flow's only by the desktop runtime,
    // and a local-process flow has none: the desktop app runs its process.
    expect(flow.loadRobot === undefined).toBe(definition.runsOn === 'desktop');
    expect(desktopFlows.some((desktop) => desktop.id === id)).toBe(definition.runsOn === 'desktop' && definition.localProcess === undefined);
    expect(flowLocalProcess(id)).toBe(definition.localProcess ?? null);
    expect(definition.flowInputs.map((input) => input.key)).toEqual(
      definition.sectionSetup.builder.flatMap((section) => section.builder).filter((input) => !input.hidden).map((input) => input.key),
    );
  });

  it.each(parsed.map(({ flow, definition }) => [definition.id, flow, definition] as const))(
    '%s: its template is a real workbook in its folder whose headers the robot recognises',
    (id, flow, definition) => {
      expect(flow.templateFile === undefined).toBe(definition.template === undefined);
      if (flow.templateFile === undefined) return;
      expect(flow.templateFile).toBe(`resources/flows/${id}/${definition.template}`);
      const data = new Uint8Array(readFileSync(new URL(flow.templateFile, repoRoot)));
      const table = firstSheetTable(readWorkbook({ name: flow.templateFile, data }) ?? { SheetNames: [], Sheets: {} });
      expect(table).not.toBeNull();
      const mappable = definition.sectionSetup.builder.flatMap((section) => section.builder).flatMap((input) => input.config?.columns ?? []);
      const detected = detectColumns(table?.headers ?? [], mappable);
      expect(detected.map((found) => found.column.key).sort()).toEqual(mappable.map((column) => column.key).sort());
    },
  );

  it.each(parsed.filter(({ flow }) => flow.loadRobot !== undefined).map(({ flow, definition }) => [definition.id, flow] as const))(
    '%s: its robot module loads',
    async (_id, flow) => {
      const robot = await flow.loadRobot?.();
      expect(typeof robot?.run).toBe('function');
    },
  );
});

describe('desktop flows', () => {
  it('lists each desktop flow of the catalogue that has a robot once, under its folder name', () => {
    const desktopIds = parsed.filter(({ definition }) => definition.runsOn === 'desktop' && definition.localProcess === undefined).map(({ definition }) => definition.id);
    expect(desktopFlows.map((flow) => flow.id).sort()).toEqual(desktopIds.sort());
    expect(desktopFlows.length).toBeGreaterThanOrEqual(1);
  });

  it.each(desktopFlows.map((flow) => [flow.id, flow] as const))('%s: its robot loads and its settings name a portal and its selectors', async (id, flow) => {
    expect(flow.settings).toEqual(JSON.parse(readFileSync(new URL(`./${id}/settings.json`, import.meta.url), 'utf8')));
    expect(URL.canParse(String(flow.settings['baseUrl']))).toBe(true);
    expect(typeof flow.settings['selectors']).toBe('object');
    const robot = await flow.loadRobot();
    expect(typeof robot.run).toBe('function');
  });

  it.each(desktopFlows.map((flow) => [flow.id] as const))('%s: its inputs are those a scheduled or remote launch sends, with a certificate', (id) => {
    const definition = parsed.find((entry) => entry.definition.id === id)?.definition;
    const inputs = definition?.sectionSetup.builder.flatMap((section) => section.builder) ?? [];
    expect(inputs.some((input) => input.template === 'Certificate' && input.required === true)).toBe(true);
    expect(definition?.sectionSetup.builder.some((section) => section.template === 'OutputSection')).toBe(true);
  });
});

describe('local-process flows (the FIE fetch and A3 sync, the altas in RED and A3, the DEHÚ update)', () => {
  const localFlows = parsed.filter(({ definition }) => definition.localProcess !== undefined).map(({ definition }) => definition);

  it('offers each local process once: the three FIE ones in group FIE, the two altas ones in Laboral, DEHÚ’s in Notificaciones at no cost', () => {
    expect(localFlows.map((definition) => [definition.id, definition.localProcess]).sort()).toEqual([
      ['actualizar-notificaciones-dehu', 'update-dehu-notifications'],
      ['altas-automaticas-red', 'sync-altas'],
      ['fie-siltra-a3', 'sync-siltra-a3'],
      ['obtener-fie-siltra', 'get-fie-siltra'],
      ['sincronizar-altas-a3', 'sync-altas-a3'],
      ['sincronizar-fie-a3', 'sync-fie-a3'],
    ]);
    expect(localFlows.find((definition) => definition.localProcess === 'sync-altas')?.name).toBe('Altas Automáticas S. RED');
    const groupOf = (localProcess: string | undefined) => (localProcess === 'update-dehu-notifications' ? 'Notificaciones' : localProcess?.startsWith('sync-altas') ? 'Laboral' : 'FIE');
    for (const definition of localFlows) {
      expect(definition).toMatchObject({ runsOn: 'desktop', group: groupOf(definition.localProcess), usageRatio: definition.localProcess === 'update-dehu-notifications' ? 0 : 1 });
      expect(flowLocalProcess(definition.id)).toBe(definition.localProcess);
    }
    // The desktop's own list (local-process-flows.ts) is the catalogue's, definition for definition.
    expect(localProcessFlowDefinitions).toEqual(expect.arrayContaining(parsed.filter(({ definition }) => definition.localProcess !== undefined).map(({ flow }) => flow.definition)));
    expect(localProcessFlowDefinitions).toHaveLength(localFlows.length);
    expect(flowLocalProcess('descargar-justificantes')).toBeNull();
    expect(flowLocalProcess('no-existe')).toBeNull();
  });

  it.each(localFlows.map((definition) => [definition.id, definition] as const))('%s: launched or scheduled from one section, with its certificate when it takes one, a result and an error section', (_id, definition) => {
    // The launcher opens on it (a first TutorialSection would be skipped) and shows the machine choice there.
    const [first] = definition.sectionSetup.builder;
    expect(first).toMatchObject({ template: 'InputComponents', execution: true, scheduler: true });
    const all = definition.sectionSetup.builder.flatMap((section) => section.builder);
    const inputs = all.filter((input) => input.hidden !== true);
    // The altas screen's buttons launch them with the altas it chose, and RED's channel, in hidden inputs (issue 44, 5).
    const hidden: Record<string, string[]> = { 'sync-altas': ['altas', 'canal'], 'sync-altas-a3': ['altas'] };
    expect(all.filter((input) => input.hidden === true).map((input) => input.key)).toEqual(hidden[definition.localProcess ?? ''] ?? []);
    // Fetching reads the SILTRA folder without a certificate (FIER needs one); RED Online needs one; the A3 syncs take nothing.
    const expected: Record<string, unknown[]> = {
      'sync-fie-a3': [],
      'sync-altas-a3': [],
      'update-dehu-notifications': [],
      'sync-altas': [['certificado', 'Certificate', true]],
    };
    expect(inputs.map((input) => [input.key, input.template, input.required])).toEqual(expected[definition.localProcess ?? ''] ?? [['certificado', 'Certificate', false]]);
    expect(definition.sectionSetup.builder.map((section) => section.template)).toEqual(expect.arrayContaining(['LoadingSection', 'OutputSection', 'ErrorSection']));
    expect(definition.instructions).toMatch(definition.usageRatio === 0 ? /Coste: consultar DEHÚ no consume slans/ : /Coste: 1 slan por/);
  });
});
