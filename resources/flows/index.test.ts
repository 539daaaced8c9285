import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowDefinitionProblems, flowDefinitionSchema, type FlowDefinition } from '#shared/flows/definition.ts';
import { detectColumns } from './_lib/columns.ts';
import { firstSheetTable, readWorkbook } from './_lib/workbook.ts';
import { builtInFlows } from './index.ts';

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

  it.each(parsed.map(({ flow, definition }) => [definition.id, flow] as const))('%s: the definition is valid and runs on the server', (_id, flow) => {
    const result = flowDefinitionSchema.safeParse(flow.definition);
    expect(result.success).toBe(true);
    const definition = result.data as FlowDefinition;
    expect(flowDefinitionProblems(definition)).toEqual([]);
    expect(definition.runsOn).toBe('server');
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

  it.each(parsed.map(({ flow, definition }) => [definition.id, flow] as const))('%s: its robot module loads', async (_id, flow) => {
    const robot = await flow.loadRobot();
    expect(typeof robot.run).toBe('function');
  });
});
