import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch, upload, workbook } from './test-support.ts';

describe('executions', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer(TEST_FLOWS_CONFIG);
  });
  afterEach(async () => server.close());

  it('runs a flow off the request thread and charges what the robot reports', async () => {
    const jar = await registerUser(server.app, 'ana@asesoria.es');
    const [book] = await upload(jar, [{ name: 'plantilla.xlsx', data: workbook([['NIF', 'Nombre'], ['12345678Z', 'Ana'], ['X1234567L', 'Luis']]) }]);
    const response = await launch(jar, TEST_FLOW_ID, { mode: 'ok', workbook: [{ uploadId: book?.id, name: 'plantilla.xlsx' }] });
    expect(response.statusCode, response.body).toBe(202);
    const started = response.json() as ExecutionStateResponse;
    expect(['queued', 'running']).toContain(started.state);
    const done = await finishedState(jar, started.executionToken);
    expect(done.output?.status, JSON.stringify(done)).toBe(200);
    expect(done.output?.data).toMatchObject({ usageUnits: 2, usageRatio: 2, cost: 4, files: [{ name: 'resultado.txt' }], summary: { filas: 2, bien: true } });
    expect(done.consoleLog).toEqual(['Empiezo en modo ok', 'Filas: 2']);
    expect(done.successfulIterations).toBe(2);
  });
});
