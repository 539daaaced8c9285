import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { altasPaths, type ClientCompany, type Submission } from '#shared/api/altas.ts';
import {
  CCC_KEY_MISSING_MESSAGE, CCC_LABEL_MISSING_MESSAGE, DUPLICATE_ALTA_MESSAGE, FULL_TIME_COEFFICIENT_MESSAGE, PART_TIME_COEFFICIENT_MISSING_MESSAGE,
  START_BEFORE_ALTA_MESSAGE, underAgeMessage,
} from '#shared/altas/index.ts';
import { FORM_URL_FORMAT_MESSAGE } from '#shared/forms/index.ts';
import { NIF_LETTER_MESSAGE } from '#shared/validation/index.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import {
  ALTAS_TABLES, CCC_A, CLIENT_VALUES, GROUP_KEY, GROUP_VALUES, OTHER_GROUP_KEY, companySignIn, firmWithCompany, groupsPath, publicFormPath, saveSettings, sendCredentials,
} from './test-support.ts';

/**
 * Issue 44, items 1 and 4: altas a gestoría must never file are refused with a Spanish 4xx that names the
 * rule, and nothing is written; the form's other rules say what they want. On SQLite and PostgreSQL.
 */

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

interface Issue {
  path: string;
  message: string;
}

const issuesOf = (response: { json: () => unknown }) => (response.json() as { issues?: Issue[] }).issues ?? [];
const submissionPath = (id: string) => altasPaths.submission.replace(':id', id);

/** Firm 'ana' with its company signed in to the public form. */
async function anaWithCompany() {
  const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
  const password = await sendCredentials(server, advisor, company._id);
  const form = await companySignIn(server, 'ana', 'rrhh@talleres.es', password);
  const send = (values: Record<string, unknown>) => form.post(publicFormPath('ana'), { companyId: company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, ...values } });
  return { advisor, companyId: company._id, send };
}

describe('implausible altas (issue 44, 1)', () => {
  it('refuses a worker born in 2015 (11 on the fecha de alta) from the company and the advisor, naming the minimum age, nothing written', async () => {
    const ana = await anaWithCompany();
    const before = server.countTables(ALTAS_TABLES);
    const fromCompany = await ana.send({ 'Fecha Nacimiento': '2015-03-10' });
    expect(fromCompany.statusCode).toBe(400);
    expect(issuesOf(fromCompany)).toEqual([{ path: 'fieldsValues.Fecha Nacimiento', message: underAgeMessage(11) }]);
    expect(underAgeMessage(11)).toContain('la edad mínima para trabajar es 16');
    const fromAdvisor = await ana.advisor.post(altasPaths.submissions, { companyId: ana.companyId, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, 'Fecha Nacimiento': '10/03/2015' } });
    expect(fromAdvisor.statusCode).toBe(400);
    expect(issuesOf(fromAdvisor)).toEqual([{ path: 'fieldsValues.Fecha Nacimiento', message: underAgeMessage(11) }]);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
    // Sixteen that very day is old enough.
    expect((await ana.send({ 'Fecha Nacimiento': '2010-12-01' })).statusCode).toBe(201);
  });

  it('refuses a contract that starts before the fecha de alta, and takes one that starts on it', async () => {
    const ana = await anaWithCompany();
    const before = server.countTables(ALTAS_TABLES);
    const early = await ana.send({ 'Fecha Inicio': '2026-11-30' });
    expect(early.statusCode).toBe(400);
    expect(issuesOf(early)).toEqual([{ path: 'fieldsValues.Fecha Inicio', message: START_BEFORE_ALTA_MESSAGE }]);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
    expect((await ana.send({ 'Fecha Inicio': '2026-12-01' })).statusCode).toBe(201);
  });

  it('refuses a correction that makes the alta implausible', async () => {
    const ana = await anaWithCompany();
    const sent = await ana.send({});
    expect(sent.statusCode, sent.body).toBe(201);
    const patched = await ana.advisor.patch(submissionPath(sent.json<{ _id: string }>()._id), { 'Fecha Nacimiento': '2015-03-10' });
    expect(patched.statusCode).toBe(400);
    expect(issuesOf(patched)).toEqual([{ path: 'fieldsValues.Fecha Nacimiento', message: underAgeMessage(11) }]);
    const stored = (await ana.advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items;
    expect(stored[0]?.fieldsValues['Fecha Nacimiento']).toBe('1990-05-31');
  });

  it('says a NIF whose letter is wrong has the wrong letter', async () => {
    const ana = await anaWithCompany();
    const response = await ana.send({ NIF: '12345678A' });
    expect(response.statusCode).toBe(400);
    expect(issuesOf(response)).toEqual([{ path: 'fieldsValues.NIF', message: NIF_LETTER_MESSAGE }]);
  });
});

describe('the same alta twice (issue 44, 1)', () => {
  it("refuses the same worker, fecha de alta and CCC again (409 that names the rule, on the NIF), whoever sends it, pending or registered", async () => {
    const ana = await anaWithCompany();
    const first = await ana.send({});
    expect(first.statusCode, first.body).toBe(201);
    const before = server.countTables(ALTAS_TABLES);

    // The same worker typed another way is the same alta.
    const again = await ana.send({ NIF: '12345678-z', 'Fecha Alta': '01/12/2026', nombre: 'Lucía María' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'DUPLICATE_ALTA', message: DUPLICATE_ALTA_MESSAGE, issues: [{ path: 'fieldsValues.NIF', message: DUPLICATE_ALTA_MESSAGE }] });
    const byAdvisor = await ana.advisor.post(altasPaths.submissions, { companyId: ana.companyId, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES });
    expect(byAdvisor.statusCode).toBe(409);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);

    // Registered in RED, it still counts.
    const id = first.json<{ _id: string }>()._id;
    const registered = await ana.advisor.post(altasPaths.redResults, { results: [{ submissionId: id, state: 'registered', message: 'OK' }] });
    expect(registered.json()).toEqual({ updated: 1 });
    expect((await ana.send({})).statusCode).toBe(409);

    // Another day, another worker: other altas.
    expect((await ana.send({ 'Fecha Alta': '2026-12-02' })).statusCode).toBe(201);
    expect((await ana.send({ NIF: '00000000T' })).statusCode).toBe(201);
  });

  it('lets a removed alta be sent again, and refuses a correction that turns one alta into another', async () => {
    const ana = await anaWithCompany();
    const first = (await ana.send({})).json<{ _id: string }>()._id;
    expect((await ana.advisor.request({ method: 'DELETE', url: submissionPath(first) })).statusCode).toBe(204);
    const resent = await ana.send({});
    expect(resent.statusCode, resent.body).toBe(201);
    const other = await ana.send({ NIF: '00000000T', nombre: 'Pablo' });
    expect(other.statusCode, other.body).toBe(201);

    const otherId = other.json<{ _id: string }>()._id;
    const clash = await ana.advisor.patch(submissionPath(otherId), { NIF: '12345678Z' });
    expect(clash.statusCode).toBe(409);
    expect(issuesOf(clash)).toEqual([{ path: 'fieldsValues.NIF', message: DUPLICATE_ALTA_MESSAGE }]);
    // Its own values again are no duplicate of itself.
    expect((await ana.advisor.patch(submissionPath(otherId), { nombre: 'Pablo José' })).statusCode).toBe(200);
  });

  it("never compares with another firm's altas: the same worker, day and CCC in another firm is taken", async () => {
    const ana = await anaWithCompany();
    expect((await ana.send({})).statusCode).toBe(201);
    const eva = await firmWithCompany(server, 'eva@gestoria.es', 'eva', 'rrhh@bar.es');
    const evaPassword = await sendCredentials(server, eva.advisor, eva.company._id);
    const evaCompany = await companySignIn(server, 'eva', 'rrhh@bar.es', evaPassword);
    const sent = await evaCompany.post(publicFormPath('eva'), { companyId: eva.company._id, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES });
    expect(sent.statusCode, sent.body).toBe(201);
    const byEvaAdvisor = await eva.advisor.post(altasPaths.submissions, { companyId: eva.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, 'Fecha Alta': '2026-12-03' } });
    expect(byEvaAdvisor.statusCode, byEvaAdvisor.body).toBe(201);
  });
});

describe("a group's jornada and coefficient (issue 44, 4)", () => {
  async function advisorWithCompany(): Promise<{ advisor: CookieJar; company: ClientCompany }> {
    const advisor = await registerUser(server.app, 'ana@asesoria.es');
    const created = await advisor.post(altasPaths.createClient, { name: 'Talleres Sur', email: 'rrhh@talleres.es', cccList: [{ label: 'Sede', key: CCC_A }] });
    expect(created.statusCode, created.body).toBe(201);
    return { advisor, company: created.json<ClientCompany>() };
  }
  const coefficientPath = (key: string) => `${key}.fieldsValues.Coeficiente Parcialidad`;

  it('refuses Completa with 500 ‰ and Parcial without a coefficient (RED refuses both), nothing written', async () => {
    const { advisor, company } = await advisorWithCompany();
    const before = server.countTables(ALTAS_TABLES);
    const fullWith500 = await advisor.post(groupsPath(company._id), { [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: { ...GROUP_VALUES, Jornada: 'completa', 'Tipo Contrato*': '100', 'Coeficiente Parcialidad': '500' } } });
    expect(fullWith500.statusCode).toBe(400);
    expect(issuesOf(fullWith500)).toEqual([{ path: coefficientPath(GROUP_KEY), message: FULL_TIME_COEFFICIENT_MESSAGE }]);
    const partWithout = await advisor.post(groupsPath(company._id), { [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: { ...GROUP_VALUES, 'Coeficiente Parcialidad': '' } } });
    expect(partWithout.statusCode).toBe(400);
    expect(issuesOf(partWithout)).toEqual([{ path: coefficientPath(GROUP_KEY), message: PART_TIME_COEFFICIENT_MISSING_MESSAGE }]);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
    expect((await advisor.get(altasPaths.company.replace(':id', company._id))).json<ClientCompany>().groups).toEqual([]);

    // Completa with none or 1000 ‰, Parcial with 1-999 ‰: taken.
    const good = await advisor.post(groupsPath(company._id), {
      [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: GROUP_VALUES },
      [OTHER_GROUP_KEY]: { text: 'Cocinero/a', fieldsValues: { ...GROUP_VALUES, Jornada: 'completa', 'Tipo Contrato*': '100', 'Coeficiente Parcialidad': '1000' } },
    });
    expect(good.statusCode, good.body).toBe(200);
  });

  it('checks a PATCH on the group as it would be saved: Completa over a stored 500 ‰ is refused', async () => {
    const { advisor, company } = await advisorWithCompany();
    expect((await advisor.post(groupsPath(company._id), { [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: GROUP_VALUES } })).statusCode).toBe(200);
    const toFullTime = await advisor.patch(groupsPath(company._id), { [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: { Jornada: 'completa', 'Tipo Contrato*': '100' } } });
    expect(toFullTime.statusCode).toBe(400);
    expect(issuesOf(toFullTime)).toEqual([{ path: coefficientPath(GROUP_KEY), message: FULL_TIME_COEFFICIENT_MESSAGE }]);
    const stored = (await advisor.get(altasPaths.company.replace(':id', company._id))).json<ClientCompany>().groups[0]?.fieldsValues;
    expect(stored).toMatchObject({ Jornada: 'parcial', 'Coeficiente Parcialidad': '500' });
    const emptied = await advisor.patch(groupsPath(company._id), { [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: { Jornada: 'completa', 'Tipo Contrato*': '100', 'Coeficiente Parcialidad': '' } } });
    expect(emptied.statusCode, emptied.body).toBe(200);
  });
});

describe('the rules the form says plainly (issue 44, 4)', () => {
  it('says a CCC row lacks its name or its CCC, on that row', async () => {
    const advisor = await registerUser(server.app, 'ana@asesoria.es');
    const before = server.countTables(ALTAS_TABLES);
    const response = await advisor.post(altasPaths.createClient, { name: 'X', email: 'x@x.es', cccList: [{ label: 'Sede', key: CCC_A }, { label: '', key: CCC_A }, { label: 'Taller', key: '' }] });
    expect(response.statusCode).toBe(400);
    expect(issuesOf(response)).toEqual([{ path: 'cccList.1', message: CCC_LABEL_MISSING_MESSAGE }, { path: 'cccList.2', message: CCC_KEY_MISSING_MESSAGE }]);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
  });

  it("says the form URL's rule on the url field", async () => {
    const advisor = await registerUser(server.app, 'ana@asesoria.es');
    const response = await saveSettings(advisor, { title: 'Altas', url: 'Asesoría López' });
    expect(response.statusCode).toBe(400);
    expect(issuesOf(response)).toEqual([{ path: 'url', message: FORM_URL_FORMAT_MESSAGE }]);
    expect((await saveSettings(advisor, { title: 'Altas', url: 'asesoria-lopez' })).statusCode).toBe(200);
  });
});
