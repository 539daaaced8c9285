import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flowlogResponseSchema } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch, upload } from '../runs/test-support.ts';

/**
 * Issue 44, item 8: the ticket form's run picker reads /api/flowlog?ran=true. The rule chosen: it lists
 * only runs that really ran. A launch refused for credits (402, kept in the history as NotEnoughSlans)
 * and the same launch let through after 'Continuar' were two entries for one launch; with ?ran=true the
 * refusal is left out. The history itself (no ?ran) still shows both.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(TEST_FLOWS_CONFIG);
});
afterEach(async () => server.close());

describe('GET /api/flowlog?ran=true', () => {
  it('leaves out a launch refused with 402 and keeps the run launched after it', async () => {
    const jar = await registerUser(server.app, 'ana@asesoria.es', 'Ana');
    const db = connectDatabase(server.database);
    try {
      const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', 'ana@asesoria.es').executeTakeFirstOrThrow();
      const basic = await db.selectFrom('plans').select('id').where('ref', '=', 'basic').executeTakeFirstOrThrow();
      await db.updateTable('subscriptions').set({ plan_id: basic.id, status: 'active', used_slans: 2_000 }).where('group_id', '=', groupId).execute();
    } finally {
      await db.destroy();
    }
    const [book] = await upload(jar, [{ name: 'lista.csv', data: 'NIF;Nombre\n12345678Z;Ana\nX1234567L;Luis\n' }]);
    const inputs = { mode: 'ok', workbook: [{ uploadId: book?.id, name: 'lista.csv' }] };

    const refused = await launch(jar, TEST_FLOW_ID, inputs);
    expect(refused.statusCode).toBe(402);
    const accepted = await launch(jar, TEST_FLOW_ID, inputs, { acceptExtraUsage: true });
    expect(accepted.statusCode, accepted.body).toBe(202);
    await finishedState(jar, accepted.json().executionToken);

    const history = flowlogResponseSchema.parse((await jar.get('/api/flowlog?limit=30')).json());
    expect(history.items.map((run) => run.result).sort()).toEqual(['NotEnoughSlans', 'Success']);
    expect(history.total).toBe(2);

    const ran = flowlogResponseSchema.parse((await jar.get('/api/flowlog?limit=30&ran=true')).json());
    expect(ran.items).toHaveLength(1);
    expect(ran.items[0]).toMatchObject({ result: 'Success', browserFlow: { _id: TEST_FLOW_ID } });
    expect(ran.total).toBe(1);
    // 'false' is the same as no filter.
    expect(flowlogResponseSchema.parse((await jar.get('/api/flowlog?limit=30&ran=false')).json()).total).toBe(2);
    expect((await jar.get('/api/flowlog?ran=quizas')).statusCode).toBe(400);
  });
});
