import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { altasPaths, type PendingSummary, type PublicForm, type Submission } from '#shared/api/altas.ts';
import { startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { ALTAS_TABLES, CLIENT_VALUES, GROUP_KEY, companySignIn, firmWithCompany, publicFormPath, sendCredentials } from './test-support.ts';

/**
 * Issue 44 (3): 'Marcar como registrada', the advisor filed the alta in RED by other means (a web-only
 * firm); and (5) the company's status view says an alta RED refused needs attention, in its own words.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

const markPath = (id: string) => altasPaths.markRegistered.replace(':id', id);
const listOf = async (jar: CookieJar) => (await jar.get(altasPaths.submissions)).json<{ items: Submission[] }>().items;

async function newAlta(jar: CookieJar, companyId: string): Promise<Submission> {
  const response = await jar.post(altasPaths.submissions, { companyId, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Submission>();
}

describe("'Marcar como registrada'", () => {
  it('records who and when with the reference, moves the alta out of RED pending and tells the company once', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const alta = await newAlta(advisor, company._id);
    const response = await advisor.post(markPath(alta._id), { reference: ' 2026-RED-0042 ' });
    expect(response.statusCode, response.body).toBe(200);
    const marked = response.json<Submission>();
    expect(marked).toMatchObject({
      manualRegistration: { byName: 'Ana Pérez', reference: '2026-RED-0042' },
      processed: { syncSistemaRed: expect.any(String) as string },
      chain: { redAt: expect.any(String) as string, companyNotifiedAt: expect.any(String) as string },
      lastError: null,
    });
    expect((await listOf(advisor))[0]).toEqual(marked);
    expect((await advisor.get(altasPaths.pending)).json<PendingSummary>()).toEqual({ red: [], a3: [{ _id: alta._id, title: alta.title }] });
    const mails = server.mailedMessages('alta_registered');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('rrhh@talleres.es');
    expect(mails[0]?.text).toContain('Número de referencia: 2026-RED-0042');
    expect(mails[0]?.text).toContain('Fecha real de alta: 01/12/2026');
  });

  it('takes no reference, and clears a RED error the alta had', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const alta = await newAlta(advisor, company._id);
    await advisor.post(altasPaths.redResults, { results: [{ submissionId: alta._id, state: 'error', message: '#DIL 3012: el trabajador ya figura de alta' }] });
    const response = await advisor.post(markPath(alta._id), {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Submission>()).toMatchObject({ manualRegistration: { byName: 'Ana Pérez', reference: null }, lastError: null, lastErrorAt: null });
    expect(server.mailedMessages('alta_registered')[0]?.text).not.toContain('referencia');
  });

  it('refuses an alta RED already has (409), another firm’s (404), bad input (400) and no session (401), writing nothing', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const alta = await newAlta(advisor, company._id);
    const link = await linkPc(advisor, 'oficina');
    const other = await firmWithCompany(server, 'eva@gestoria.es', 'eva', 'rrhh@bar.es');
    const evaAlta = await newAlta(other.advisor, other.company._id);
    // RED registered ana's alta through the robot.
    const robot = await server.app.inject({ method: 'POST', url: altasPaths.redResults, headers: { authorization: `Device ${link.deviceToken}` }, payload: { results: [{ submissionId: alta._id, state: 'registered', message: 'Alta admitida' }] } });
    expect(robot.json()).toEqual({ updated: 1 });
    const before = await listOf(advisor);
    const tables = server.countTables(ALTAS_TABLES);

    const again = await advisor.post(markPath(alta._id), { reference: 'X' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Esta alta ya está registrada en Sistema RED');
    const foreign = await advisor.post(markPath(evaAlta._id), { reference: 'X' });
    expect(foreign.statusCode).toBe(404);
    expect((await advisor.post(markPath('no-existe'), {})).statusCode).toBe(404);
    expect((await other.advisor.post(markPath(evaAlta._id), { reference: 'x'.repeat(101) })).statusCode).toBe(400);
    expect((await other.advisor.post(markPath(evaAlta._id), { otra: 'cosa' })).statusCode).toBe(400);
    expect((await server.app.inject({ method: 'POST', url: markPath(evaAlta._id), payload: {} })).statusCode).toBe(401);
    // A device token is the robots' key, not an advisor's: it cannot mark by hand.
    expect((await server.app.inject({ method: 'POST', url: markPath(evaAlta._id), headers: { authorization: `Device ${link.deviceToken}` }, payload: {} })).statusCode).toBe(401);

    expect(await listOf(advisor)).toEqual(before);
    expect((await listOf(other.advisor))[0]).toMatchObject({ manualRegistration: null, chain: { redAt: null } });
    expect(server.countTables(ALTAS_TABLES)).toEqual(tables);
    expect(server.mailedMessages('alta_registered').map((mail) => mail.to)).toEqual(['rrhh@talleres.es']);
  });
});

describe("the company's status view", () => {
  it('says an alta RED refused is being reviewed by the firm, never RED’s error; registered once RED has it', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const password = await sendCredentials(server, advisor, company._id);
    const client = await companySignIn(server, 'ana', 'rrhh@talleres.es', password);
    const sent = await client.post(publicFormPath('ana'), { companyId: company._id, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json<{ _id: string }>()._id;
    const statusOf = async () => {
      const response = await client.get(publicFormPath('ana'));
      return { body: response.body, item: response.json<PublicForm>().session?.submissions[0] };
    };
    expect((await statusOf()).item).toMatchObject({ _id: id, status: 'received', registered: false });

    await advisor.post(altasPaths.redResults, { results: [{ submissionId: id, state: 'error', message: '#DIL 3012: el trabajador ya figura de alta' }] });
    const refused = await statusOf();
    expect(refused.item).toMatchObject({ status: 'attention', registered: false });
    expect(refused.body).not.toContain('3012');

    await advisor.post(markPath(id), {});
    expect((await statusOf()).item).toMatchObject({ status: 'registered', registered: true });
  });
});
