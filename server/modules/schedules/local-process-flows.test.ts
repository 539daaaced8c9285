import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlotRun } from '#shared/api/autopilot.ts';
import type { ExecutionStateResponse, ScheduledFlow } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc } from '../devices/test-support.ts';
import { withDatabase } from '../machines/test-support.ts';
import { launch } from '../runs/test-support.ts';

/**
 * The FIE local processes as flows of the real catalogue (resources/flows): 'FIE de SILTRA a A3' has no
 * robot, so whether it is scheduled or launched now, the run the PC leases names its process
 * (sync-siltra-a3) and the desktop runs that. Runs on SQLite and, with AUTOASESOR_TEST_DB=postgres, PostgreSQL.
 */

const FLOW_ID = 'fie-siltra-a3';
const FINGERPRINT = 'cd'.repeat(32);

let server: TestServer;
let ana: CookieJar;
let machineId: string;
let device: DeviceClient;

beforeEach(async () => {
  // The app's own catalogue; the schedule runner is off: only these calls launch anything.
  server = await startTestServer({ scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  const link = await linkPc(ana, 'despacho', 'PC del despacho');
  machineId = link.machine._id;
  device = new DeviceClient(server, link.deviceToken);
});
afterEach(async () => server.close());

const storedProcess = (scheduleId: string) =>
  withDatabase(server, async (db) => (await db.selectFrom('flow_schedules').select('local_process').where('id', '=', scheduleId).executeTakeFirstOrThrow()).local_process);

async function schedule(flowId: string, body: Record<string, unknown>): Promise<ScheduledFlow> {
  const response = await ana.post(`/api/browserflow/schedule/${flowId}`, { scheduledDate: new Date().toISOString(), machine: machineId, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ScheduledFlow;
}

describe('a local-process flow of the catalogue', () => {
  it("is offered as a desktop flow of group FIE", async () => {
    const { items } = (await ana.get('/api/browserflow/flow')).json() as { items: { id: string; name: string; group: string; runsOn: string }[] };
    expect(items.filter((flow) => flow.group === 'FIE').map(({ id, name, runsOn }) => ({ id, name, runsOn }))).toEqual(
      expect.arrayContaining([
        { id: 'obtener-fie-siltra', name: 'Obtener FIE de SILTRA', runsOn: 'desktop' },
        { id: 'sincronizar-fie-a3', name: 'Sincronizar FIE con A3', runsOn: 'desktop' },
        { id: FLOW_ID, name: 'FIE de SILTRA a A3', runsOn: 'desktop' },
      ]),
    );
  });

  it("scheduled through the API, keeps the flow's process (whatever the request said), and the machine's lease carries it", async () => {
    const scheduled = await schedule(FLOW_ID, { flowInputs: { certificado: FINGERPRINT }, localProcess: 'get-fie-siltra' });
    expect(scheduled).toMatchObject({ browserFlow: FLOW_ID, browserFlowName: 'FIE de SILTRA a A3', localProcess: 'sync-siltra-a3' });
    expect(await storedProcess(scheduled._id)).toBe('sync-siltra-a3');

    const slot = await device.post(`/api/device/schedules/${scheduled._id}/launch`, { scheduledDate: scheduled.scheduledDate });
    expect(slot.statusCode, slot.body).toBe(200);
    const run = await device.leaseNext(0);
    expect(run).toMatchObject({ runId: (slot.json() as SlotRun).runId, flowId: FLOW_ID, localProcess: 'sync-siltra-a3', inputs: { certificado: FINGERPRINT } });
  });

  it('without a certificate is scheduled too (only the SILTRA folder is read), and a flow with a robot keeps no process of its own', async () => {
    const bare = await schedule('sincronizar-fie-a3', { flowInputs: {} });
    expect(await storedProcess(bare._id)).toBe('sync-fie-a3');
    expect((await schedule('obtener-fie-siltra', { flowInputs: {} })).localProcess).toBe('get-fie-siltra');
    const robot = await schedule('descargar-justificantes', { flowInputs: { certificado: FINGERPRINT, desde: '2026-11-01', hasta: '2026-11-02' } });
    expect(robot.localProcess).toBeNull();
  });

  it('launched now on the PC (no schedule), the lease names its process; a robot flow’s does not', async () => {
    const response = await launch(ana, FLOW_ID, {}, { machineId, localLaunch: true });
    expect(response.statusCode, response.body).toBe(202);
    const queued = response.json() as ExecutionStateResponse;
    const claimed = await device.claim(queued.executionToken);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ run: { runId: queued.runId, flowId: FLOW_ID, localProcess: 'sync-siltra-a3' } });

    const robotRun = await launch(ana, 'descargar-justificantes', { certificado: FINGERPRINT, desde: '2026-11-01', hasta: '2026-11-02' }, { machineId });
    expect(robotRun.statusCode, robotRun.body).toBe(202);
    expect(await device.leaseNext(0)).not.toHaveProperty('localProcess');
  });
});
