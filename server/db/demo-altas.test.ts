import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { altasPaths, type ClientCompany, type FormSettings, type PendingSummary, type Submission } from '#shared/api/altas.ts';
import { CookieJar, startTestServer, type TestServer } from '../test/harness.ts';
import { DEMO_ALTAS_COMPANY, DEMO_DIL_ERROR } from './demo-altas.ts';
import { DEMO_ACCOUNT } from './seed.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');

describe('the demo account’s altas', () => {
  let server: TestServer;
  let demo: CookieJar;
  beforeEach(async () => {
    server = await startTestServer({ demoAccount: true, demoFiles: false, now: () => NOW, scheduleRunnerIntervalMs: 0 });
    demo = new CookieJar(server.app);
    expect((await demo.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password })).statusCode).toBe(200);
  });
  afterEach(async () => server.close());

  it('has its form, a company with two CCCs and two groups, and an alta at each step', async () => {
    expect((await demo.get(altasPaths.formSettings)).json<FormSettings>()).toEqual({ title: 'Altas de trabajadores', url: '/form/flows/demo', logo: null });
    const companies = (await demo.get(altasPaths.companies)).json<{ items: ClientCompany[] }>().items;
    expect(companies.map((company) => [company.fieldsValues.nombreEmpresa, company.fieldsValues.CCC.length, company.groups.map((group) => group.text)])).toEqual([
      [DEMO_ALTAS_COMPANY, 2, ['Camarero/a', 'Cocinero/a']],
    ]);
    const submissions = (await demo.get(altasPaths.submissions)).json<{ items: Submission[] }>().items;
    expect(submissions.map((item) => [item.chain.redAt !== null, item.chain.a3At !== null, item.lastError])).toEqual([
      [false, false, null],
      [false, false, DEMO_DIL_ERROR],
      [true, true, null],
    ]);
    // The seeded values are whole: the RED robot gets records for the two waiting ones.
    const pending = (await demo.get(altasPaths.pending)).json<PendingSummary>();
    expect(pending.red).toHaveLength(2);
    const records = (await demo.post(altasPaths.redRecords, { ids: pending.red.map((item) => item._id) })).json();
    expect(records.problems).toEqual([]);
    expect(records.records).toHaveLength(2);
  });
});
