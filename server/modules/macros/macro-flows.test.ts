import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathFor, type ExecutionStateResponse, type ScheduledFlow } from '#shared/api/flows.ts';
import { machinesPaths } from '#shared/api/machines.ts';
import { MACRO_RESERVED_INPUT_MESSAGE, macrosPaths, type Macro } from '#shared/api/macros.ts';
import { sharePaths } from '#shared/api/share.ts';
import { MACRO_DEFINITION_INPUT, MACRO_VERSION_INPUT } from '#shared/macros/to-flow.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { DeviceClient, linkPc, successWith } from '../devices/test-support.ts';
import { FLOW_NOT_FOUND_MESSAGE } from '../flows/errors.ts';
import { DESKTOP_FLOW_ID } from '../flows/test-flows/index.ts';
import { memberOf } from '../flowlogs/fixtures.ts';
import { launch, TEST_FLOWS_CONFIG, upload, workbook } from '../runs/test-support.ts';
import { createMacro, macroPath, rowsMacro, sampleMacro } from './test-support.ts';

/**
 * A macro runs as the flow 'macro-<id>' (issue 41): launched on a linked PC with the version current at
 * the launch in its inputs, charged as its definition says, scheduled like any desktop flow, and gone
 * from the launcher once deleted. The schedule runner is off: only these calls launch anything.
 */

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let machineId: string;
let device: DeviceClient;

beforeEach(async () => {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, scheduleRunnerIntervalMs: 0 });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria-uno.es', 'Ana Pérez');
  const link = await linkPc(ana, 'despacho', 'PC del despacho');
  machineId = link.machine._id;
  device = new DeviceClient(server, link.deviceToken);
}, 60_000);
afterEach(async () => {
  await db.destroy();
  await server.close();
});

const runRow = (runId: string) => db.selectFrom('flow_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
const storedInputs = async (runId: string) => JSON.parse((await runRow(runId)).inputs) as Record<string, unknown>;

async function launchOnPc(macro: Pick<Macro, 'flowId'>, inputs: Record<string, unknown> = { usuario: 'ana' }, jar = ana): Promise<ExecutionStateResponse> {
  const response = await launch(jar, macro.flowId, inputs, { machineId });
  expect(response.statusCode, response.body).toBe(202);
  return response.json<ExecutionStateResponse>();
}

describe('launching a macro', () => {
  it('puts the current version and its number in the run, hands them to the machine, and a later save changes only later launches', async () => {
    const macro = await createMacro(ana);
    const first = await launchOnPc(macro);
    expect(await storedInputs(first.runId)).toEqual({ usuario: 'ana', [MACRO_DEFINITION_INPUT]: sampleMacro(), [MACRO_VERSION_INPUT]: 1 });
    expect(await runRow(first.runId)).toMatchObject({ flow_id: macro.flowId, flow_name: 'Consulta de saldo', usage_ratio: 2, reserved_cost: 2, machine_id: machineId });

    // Saved again while the first run waits: the first still runs version 1.
    const saved = await ana.put(macroPath(macrosPaths.macro, { id: macro.id }), { definition: sampleMacro({ name: 'Consulta de saldo v2', timeLimitSeconds: 300 }) });
    expect(saved.statusCode, saved.body).toBe(200);
    const leased = await device.leaseNext(0);
    expect(leased).toMatchObject({ runId: first.runId, flowId: macro.flowId, flowName: 'Consulta de saldo', timeLimitSeconds: 120, fileInputs: [], inputs: { usuario: 'ana', [MACRO_VERSION_INPUT]: 1 } });
    expect(leased.inputs[MACRO_DEFINITION_INPUT]).toEqual(sampleMacro());
    const second = await launchOnPc(macro);
    expect(await storedInputs(second.runId)).toMatchObject({ [MACRO_DEFINITION_INPUT]: sampleMacro({ name: 'Consulta de saldo v2', timeLimitSeconds: 300 }), [MACRO_VERSION_INPUT]: 2 });

    // Charged per run at the macro's 2 slans.
    const finish = await device.finish(first.runId, successWith({ 'saldo.xlsx': 'x' }));
    expect(finish.statusCode, finish.body).toBe(200);
    expect(await runRow(first.runId)).toMatchObject({ state: 'finished', result: 'Success', cost: 2 });
  });

  it('refuses a caller-sent __macro or __macroVersion with a 400, for macros and built-in flows alike, writing nothing', async () => {
    const macro = await createMacro(ana);
    const before = server.countRows('flow_runs');
    const forged = await launch(ana, macro.flowId, { usuario: 'ana', [MACRO_DEFINITION_INPUT]: sampleMacro({ startUrl: 'https://otro.example.es' }) }, { machineId });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ issues: [{ path: `inputs.${MACRO_DEFINITION_INPUT}`, message: MACRO_RESERVED_INPUT_MESSAGE }] });
    const version = await launch(ana, DESKTOP_FLOW_ID, { certificate: 'ab'.repeat(32), [MACRO_VERSION_INPUT]: 7 }, { machineId });
    expect(version.statusCode).toBe(400);
    expect(version.json()).toMatchObject({ issues: [{ path: `inputs.${MACRO_VERSION_INPUT}` }] });
    expect(server.countRows('flow_runs')).toBe(before);
  });

  it('reserves and charges a per-row macro by the rows of its workbook', async () => {
    const macro = await createMacro(ana, rowsMacro());
    const [file] = await upload(ana, [{ name: 'empleados.xlsx', data: workbook([['NIF'], ['12345678Z'], ['87654321X'], ['11111111H'], ['22222222J']]) }]);
    const run = await launchOnPc(macro, { empleados: [{ uploadId: file?.id, name: 'empleados.xlsx' }] });
    expect(await runRow(run.runId)).toMatchObject({ usage_ratio: 0.5, reserved_cost: 2 });
    const leased = await device.leaseNext(0);
    expect(leased.fileInputs).toEqual(['empleados']);
    await device.finish(run.runId, successWith({ 'saldo.xlsx': 'x' }, 3));
    expect(await runRow(run.runId)).toMatchObject({ result: 'Success', usage_units: 3, cost: 1.5 });
  });

  it("is not launchable once deleted, nor by a colleague it is not shared with, nor by another firm: the flow's Spanish 404", async () => {
    const macro = await createMacro(ana);
    const luis = await joinFirm(server, ana, 'luis@asesoria-uno.es', 'Luis Gil');
    const otra = await registerUser(server.app, 'eva@asesoria-dos.es', 'Eva Otra');
    for (const jar of [luis, otra]) {
      const response = await launch(jar, macro.flowId, { usuario: 'x' }, { machineId });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'FLOW_NOT_FOUND', message: FLOW_NOT_FOUND_MESSAGE });
    }
    const { userId } = await memberOf(db, 'luis@asesoria-uno.es');
    await ana.put(sharePaths.object.replace(':kind', 'macro').replace(':id', macro.id), { grants: [{ userId, access: 'view' }] });
    // Shared: Luis may launch it (on Ana's PC he cannot see, so 404 for the machine, not the robot).
    expect((await launch(luis, macro.flowId, { usuario: 'x' }, { machineId })).json()).not.toMatchObject({ code: 'FLOW_NOT_FOUND' });

    // The launcher's saved settings of the flow answer for the firm's own macro only.
    expect((await ana.get(pathFor(machinesPaths.scriptSettings, { flowId: macro.flowId }))).json()).toEqual({ items: [] });
    expect((await otra.get(pathFor(machinesPaths.scriptSettings, { flowId: macro.flowId }))).statusCode).toBe(404);

    expect((await ana.request({ method: 'DELETE', url: macroPath(macrosPaths.macro, { id: macro.id }) })).statusCode).toBe(204);
    expect((await ana.get(pathFor(machinesPaths.scriptSettings, { flowId: macro.flowId }))).statusCode).toBe(404);
    const gone = await launch(ana, macro.flowId, { usuario: 'ana' }, { machineId });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'FLOW_NOT_FOUND', message: FLOW_NOT_FOUND_MESSAGE });
  });
});

describe('scheduling a macro', () => {
  const schedule = (jar: CookieJar, flowId: string, body: Record<string, unknown> = {}) =>
    jar.post(`/api/browserflow/schedule/${flowId}`, { scheduledDate: new Date().toISOString(), machine: machineId, flowInputs: { usuario: 'ana' }, ...body });

  it('schedules it on a PC, whose autopilot launches the version current then; deleting the macro stops its schedules', async () => {
    const macro = await createMacro(ana);
    const created = await schedule(ana, macro.flowId);
    expect(created.statusCode, created.body).toBe(201);
    const scheduled = created.json<ScheduledFlow>();
    expect(scheduled).toMatchObject({ browserFlow: macro.flowId, browserFlowName: 'Consulta de saldo', machine: { _id: machineId } });

    await ana.put(macroPath(macrosPaths.macro, { id: macro.id }), { definition: sampleMacro({ description: 'Segunda versión' }) });
    const slot = await device.post(`/api/device/schedules/${scheduled._id}/launch`, { scheduledDate: scheduled.scheduledDate });
    expect(slot.statusCode, slot.body).toBe(200);
    const { runId } = slot.json<{ runId: string }>();
    expect(await runRow(runId)).toMatchObject({ schedule_id: scheduled._id, scheduled: 1, flow_id: macro.flowId });
    expect(await storedInputs(runId)).toMatchObject({ usuario: 'ana', [MACRO_VERSION_INPUT]: 2, [MACRO_DEFINITION_INPUT]: sampleMacro({ description: 'Segunda versión' }) });

    expect((await ana.request({ method: 'DELETE', url: macroPath(macrosPaths.macro, { id: macro.id }) })).statusCode).toBe(204);
    expect((await ana.get(`/api/browserflow/schedule/${scheduled._id}`)).statusCode).toBe(404);
    expect(server.countRows('flow_schedules')).toBe(0);
  });

  it("refuses a schedule of another firm's or a deleted macro, and caller-sent macro inputs, writing nothing", async () => {
    const macro = await createMacro(ana);
    const otra = await registerUser(server.app, 'eva@asesoria-dos.es', 'Eva Otra');
    const otraPc = await linkPc(otra, 'otra', 'PC de Eva');
    expect((await schedule(otra, macro.flowId, { machine: otraPc.machine._id })).statusCode).toBe(404);
    const forged = await schedule(ana, macro.flowId, { flowInputs: { usuario: 'ana', [MACRO_DEFINITION_INPUT]: sampleMacro() } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ issues: [{ path: `flowInputs.${MACRO_DEFINITION_INPUT}`, message: MACRO_RESERVED_INPUT_MESSAGE }] });
    // Its inputs are checked as a launch checks them.
    expect((await schedule(ana, macro.flowId, { flowInputs: {} })).json()).toMatchObject({ statusCode: 400, issues: [{ path: 'flowInputs.usuario' }] });
    await ana.request({ method: 'DELETE', url: macroPath(macrosPaths.macro, { id: macro.id }) });
    expect((await schedule(ana, macro.flowId)).statusCode).toBe(404);
    expect(server.countRows('flow_schedules')).toBe(0);
  });
});
