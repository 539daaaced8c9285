import { afterEach, describe, expect, it } from 'vitest';
import { altasPaths, type ReceivedSummary } from '#shared/api/altas.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { registerColleague, withDatabase } from '../machines/test-support.ts';
import { altaReceivedCause } from './advisor-notice.ts';
import { CLIENT_VALUES, GROUP_KEY, companySignIn, firmWithCompany, publicFormPath, sendCredentials } from './test-support.ts';

/**
 * Issue 44 (3): when a company sends an alta the firm's advisors hear of it — a mail through the outbox
 * with the link to the alta, and Home's count of the altas sent that wait for RED.
 */
let server: TestServer;
afterEach(async () => server.close());

async function companySends(slug = 'ana') {
  const ana = await firmWithCompany(server, 'ana@asesoria.es', slug, 'rrhh@talleres.es');
  const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
  const password = await sendCredentials(server, ana.advisor, ana.company._id);
  const client = await companySignIn(server, slug, 'rrhh@talleres.es', password);
  const sent = await client.post(publicFormPath(slug), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES });
  expect(sent.statusCode, sent.body).toBe(201);
  return { ...ana, luis, altaId: sent.json<{ _id: string }>()._id };
}

describe("the advisors' notice of a company's alta", () => {
  it('mails every advisor of the firm once, through the outbox, with the link to the alta', async () => {
    server = await startTestServer({ mailOutboxIntervalMs: 50, publicUrl: 'https://app.autoasesor.test' });
    const { altaId } = await companySends();
    const queued = await withDatabase(server, (db) => db.selectFrom('mail_outbox').selectAll().where('cause_key', '=', altaReceivedCause(altaId)).execute());
    expect(queued).toHaveLength(1);
    const [mail] = queued;
    expect(JSON.parse(mail?.to_addresses ?? '[]')).toEqual(['ana@asesoria.es', 'luis@asesoria.es']);
    expect(mail?.subject).toBe('Nueva alta de Empresa de ana: Lucía García Ruiz');
    expect(mail?.body).toContain('con fecha de alta 01/12/2026');
    expect(mail?.body).toContain(`https://app.autoasesor.test/altasybajas?alta=${altaId}`);
    // The outbox sends it through the server's mailer, to each advisor (logged here: tests have no SMTP).
    const sentTo = () => server.logLines().flatMap((line) => {
      const logged = line.mail as { to?: string; purpose?: string } | undefined;
      return logged?.purpose === 'run_notice' && typeof logged.to === 'string' ? [logged.to] : [];
    });
    await expect.poll(sentTo, { timeout: 5_000 }).toEqual(['ana@asesoria.es', 'luis@asesoria.es']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sentTo()).toHaveLength(2);
  });

  it('counts for Home the altas companies sent that RED does not have yet, for their firm only', async () => {
    server = await startTestServer();
    const { advisor, luis, altaId } = await companySends();
    const eva = await firmWithCompany(server, 'eva@gestoria.es', 'eva', 'rrhh@bar.es');
    // An alta the advisor typed is not news to the firm.
    const own = await advisor.post(altasPaths.submissions, { companyId: (await advisor.get(altasPaths.companies)).json<{ items: { _id: string }[] }>().items[0]?._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, NIF: '00000000T', nombre: 'Pablo' } });
    expect(own.statusCode, own.body).toBe(201);

    const summary = (await luis.get(altasPaths.received)).json<ReceivedSummary>();
    expect(summary).toEqual({ count: 1, newestAt: expect.any(String) as string });
    expect((await eva.advisor.get(altasPaths.received)).json<ReceivedSummary>()).toEqual({ count: 0, newestAt: null });
    expect((await server.app.inject({ method: 'GET', url: altasPaths.received })).statusCode).toBe(401);

    expect((await advisor.post(altasPaths.markRegistered.replace(':id', altaId), {})).statusCode).toBe(200);
    expect((await advisor.get(altasPaths.received)).json<ReceivedSummary>()).toEqual({ count: 0, newestAt: null });
  });
});
