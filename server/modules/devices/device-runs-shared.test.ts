import { describe, expect, it } from 'vitest';
import type { LeasedRun } from '#shared/api/devices.ts';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { registerUser } from '../../test/harness.ts';
import { twoServersOnPostgres } from '../../test/two-servers.ts';
import { DESKTOP_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, launch } from '../runs/test-support.ts';
import { DeviceClient, linkPc } from './test-support.ts';

const url = process.env.TEST_DATABASE_URL;

/**
 * Several server processes on one PostgreSQL database: a machine's long poll on one server receives
 * a run launched on another (it re-checks the database, as no event crosses processes), and two polls
 * of one machine on two servers never both lease it.
 */
describe.skipIf(!url)('machine runs across two servers on one PostgreSQL database (TEST_DATABASE_URL)', () => {
  const shared = twoServersOnPostgres(url ?? '', 'autoasesor_devices', TEST_FLOWS_CONFIG);

  it('hands a run launched on one server to the machine polling the other, within a second, and to one poll only', async () => {
    const [first, second] = shared.servers();
    const ana = await registerUser(first, 'ana@asesoria.es');
    const pc = await linkPc(ana, 'despacho');
    const onFirst = new DeviceClient({ app: first }, pc.deviceToken);
    const onSecond = new DeviceClient({ app: second }, pc.deviceToken);
    const launchOnPc = async () => {
      const response = await launch(ana, DESKTOP_FLOW_ID, {}, { machineId: pc.machine._id });
      expect(response.statusCode, response.body).toBe(202);
      return response.json() as ExecutionStateResponse;
    };

    // Launched through the first server, received by a poll on the second.
    const waiting = onSecond.next(10);
    await new Promise((done) => setTimeout(done, 300));
    const launchedAt = Date.now();
    const queued = await launchOnPc();
    const received = await waiting;
    expect(received.statusCode).toBe(200);
    expect((received.json() as { run: LeasedRun }).run.runId).toBe(queued.runId);
    expect(Date.now() - launchedAt).toBeLessThan(1_000);

    // Polls of one machine on both servers at once: one lease.
    const polls = [onFirst.next(3), onSecond.next(3), onSecond.next(3), onFirst.next(3)];
    await new Promise((done) => setTimeout(done, 300));
    const next = await launchOnPc();
    const answers = await Promise.all(polls);
    const leased = answers.filter((answer) => answer.statusCode === 200);
    expect(leased).toHaveLength(1);
    expect((leased[0]?.json() as { run: LeasedRun }).run.runId).toBe(next.runId);
    expect(answers.filter((answer) => answer.statusCode === 204)).toHaveLength(3);
  }, 30_000);
});
