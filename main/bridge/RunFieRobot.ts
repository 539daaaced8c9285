import type { Handler } from './context.ts';

/**
 * Carries the selected entries into A3 (input-dataTable: their A3 sync records, as POST
 * /api/fie/a3-records answered): one import workbook into A3's folder, A3's answer per row, and each
 * entry's state sent to the server (POST /api/fie/a3-results). flowId and fieIds are the spec's payload
 * (the flow the screen names, the documents the rows come from); the import itself needs the rows only.
 */
export const RunFieRobot: Handler<'RunFieRobot'> = async ({ flowInputs }, ctx) => ctx.fie.importToA3(flowInputs['input-dataTable']);
