import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { altasPaths, BAD_CREDENTIALS_MESSAGE, EMAIL_IN_USE_MESSAGE, MAIL_FAILED_MESSAGE, noGroupMessage, type ClientCompany, type PublicForm } from '#shared/api/altas.ts';
import { CookieJar, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import {
  ALTAS_TABLES, CCC_A, CCC_B, GROUP_KEY, GROUP_VALUES, OTHER_GROUP_KEY, addGroup, companySignIn, createCompany, firmWithCompany, groupsPath, publicFormPath, saveSettings, sendCredentials,
} from './test-support.ts';
import { COMPANY_EMAIL_RATE_LIMIT } from './routes.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

const clientPath = (id: string) => altasPaths.client.replace(':id', id);

describe('companies', () => {
  it('needs a session', async () => {
    for (const [method, url] of [['GET', altasPaths.companies], ['POST', altasPaths.createClient], ['PUT', altasPaths.sendEmail.replace(':id', 'x')], ['DELETE', clientPath('x')]] as const) {
      expect((await server.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
    }
  });

  it('creates a company, reusing the firm client user of the same email, and lists it by name', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const first = await createCompany(ana, { name: 'Talleres Sur', email: 'RRHH@Empresa.es', cccList: [{ label: 'Sede', key: '28 123456742' }] });
    expect(first).toMatchObject({ fieldsValues: { nombreEmpresa: 'Talleres Sur', email: 'rrhh@empresa.es', CCC: [{ label: 'Sede', key: CCC_A }] }, groups: [], removed: false, credentials: { enabled: false, emailSentAt: null } });
    const second = await createCompany(ana, { name: 'Alimentación Norte', email: 'rrhh@empresa.es' });
    expect(second.credentials.client).toBe(first.credentials.client);
    expect(server.countRows('altas_client_users')).toBe(1);
    expect(server.countRows('altas_forms')).toBe(1);
    const list = (await ana.get(altasPaths.companies)).json<{ items: ClientCompany[] }>().items;
    expect(list.map((company) => company.fieldsValues.nombreEmpresa)).toEqual(['Alimentación Norte', 'Talleres Sur']);
  });

  it("refuses a member of its own firm's email (409) and bad input (400) with nothing written", async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const before = server.countTables(ALTAS_TABLES);
    const clash = await ana.post(altasPaths.createClient, { name: 'X', email: 'ana@asesoria.es', cccList: [] });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(EMAIL_IN_USE_MESSAGE);
    expect((await ana.post(altasPaths.createClient, { name: '', email: 'no-es-email', cccList: [] })).statusCode).toBe(400);
    const badCcc = await ana.post(altasPaths.createClient, { name: 'X', email: 'x@x.es', cccList: [{ label: '', key: CCC_A }, { label: 'B', key: '28123456700' }] });
    expect(badCcc.statusCode).toBe(400);
    // Each row says what it lacks (issue 44: the nameless row said only 'Comprueba la información').
    expect(badCcc.json().issues).toEqual([{ path: 'cccList.0', message: 'Falta el nombre de esta cuenta (por ejemplo, el centro de trabajo)' }, { path: 'cccList.1', message: 'Introduce un CCC válido' }]);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
  });

  it("tells nothing of other firms: their clients' and advisors' emails are free here, and each firm's company signs in to its own form", async () => {
    const ana = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const eva = await firmWithCompany(server, 'eva@gestoria.es', 'eva', 'rrhh@talleres.es');
    // Another firm's advisor may be this firm's client (e.g. an asesoría that is itself a client).
    const advisorAsClient = await eva.advisor.post(altasPaths.createClient, { name: 'Asesoría Ana', email: 'ana@asesoria.es', cccList: [] });
    expect(advisorAsClient.statusCode, advisorAsClient.body).toBe(201);
    const moved = await ana.advisor.patch(clientPath(ana.company._id), { email: 'eva@gestoria.es' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await ana.advisor.patch(clientPath(ana.company._id), { email: 'rrhh@talleres.es' })).statusCode).toBe(200);
    expect(ana.company.credentials.client).not.toBe(eva.company.credentials.client);

    const anaPassword = await sendCredentials(server, ana.advisor, ana.company._id);
    const evaPassword = await sendCredentials(server, eva.advisor, eva.company._id);
    const inAna = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const inEva = await companySignIn(server, 'eva', 'rrhh@talleres.es', evaPassword);
    expect((await inAna.get(publicFormPath('ana'))).json<PublicForm>().session?.companies.map((company) => company._id)).toEqual([ana.company._id]);
    expect((await inEva.get(publicFormPath('eva'))).json<PublicForm>().session?.companies.map((company) => company._id)).toEqual([eva.company._id]);
    // One firm's password does not open the other's form.
    const crossed = await new CookieJar(server.app).post(altasPaths.publicAuth, { url: '/form/flows/eva', email: 'rrhh@talleres.es', password: anaPassword });
    expect(crossed.statusCode).toBe(401);
  });

  it('limits company creations and email changes per client (429)', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const statuses: number[] = [];
    for (let index = 0; index < COMPANY_EMAIL_RATE_LIMIT.max + 1; index += 1) {
      statuses.push((await ana.post(altasPaths.createClient, { name: `Empresa ${index}`, email: `rrhh${index}@empresa.es`, cccList: [] })).statusCode);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(COMPANY_EMAIL_RATE_LIMIT.max);
    expect(statuses.at(-1)).toBe(429);
    expect(server.countRows('altas_companies')).toBe(COMPANY_EMAIL_RATE_LIMIT.max);
  });

  it("keeps each firm's companies to itself (404) and updates, removes and groups its own", async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const eva = await registerUser(server.app, 'eva@gestoria.es');
    const company = await createCompany(ana, { name: 'Talleres Sur', email: 'rrhh@talleres.es' });
    const id = company._id;
    expect((await eva.get(altasPaths.company.replace(':id', id))).statusCode).toBe(404);
    expect((await eva.patch(clientPath(id), { name: 'Mío' })).statusCode).toBe(404);
    expect((await eva.post(groupsPath(id), { [GROUP_KEY]: { text: 'G' } })).statusCode).toBe(404);
    expect((await eva.request({ method: 'DELETE', url: clientPath(id) })).statusCode).toBe(404);
    expect((await eva.get(altasPaths.companies)).json().items).toEqual([]);

    const renamed = await ana.patch(clientPath(id), { name: 'Talleres del Sur', cccList: [{ label: 'Sede', key: CCC_A }, { label: 'Nave', key: CCC_B }] });
    expect(renamed.json<ClientCompany>().fieldsValues).toMatchObject({ nombreEmpresa: 'Talleres del Sur', CCC: [{ key: CCC_A }, { key: CCC_B }] });
    const opened = await ana.patch(altasPaths.companies, { _id: id, open: true, credentials: { enabled: true } });
    expect(opened.json<ClientCompany>()).toMatchObject({ open: true, credentials: { enabled: true } });
    expect((await ana.patch(altasPaths.companies, { _id: id, formToFlowConfiguration: 'otra' })).statusCode).toBe(404);

    const withGroup = await addGroup(ana, id);
    expect(withGroup.groups).toEqual([{ key: GROUP_KEY, text: 'Camarero/a', fieldsValues: GROUP_VALUES }]);
    const changed = await ana.patch(groupsPath(id), { [GROUP_KEY]: { text: 'Camarera', fieldsValues: { 'CN Ocupación': '5110' } } });
    expect(changed.json<ClientCompany>().groups[0]).toMatchObject({ text: 'Camarera', fieldsValues: { 'CN Ocupación': '5110', Jornada: 'parcial' } });
    expect((await ana.patch(groupsPath(id), { [OTHER_GROUP_KEY]: { text: 'No existe' } })).statusCode).toBe(404);
    const badValues = await ana.post(groupsPath(id), { [OTHER_GROUP_KEY]: { text: 'Cocinero/a', fieldsValues: { 'Convenio Colectivo': '12', nombre: 'Ana' } } });
    expect(badValues.statusCode).toBe(400);
    expect(badValues.json().details.fields).toEqual({ [`${OTHER_GROUP_KEY}.fieldsValues.Convenio Colectivo`]: 'El código de convenio debe tener 14 dígitos', [`${OTHER_GROUP_KEY}.fieldsValues.nombre`]: 'Este campo no existe en el formulario' });
    expect((await ana.post(groupsPath(id), { 'no-uuid': { text: 'X' } })).statusCode).toBe(400);

    // Copying a group to another company is a POST there with the same key and values.
    const other = await createCompany(ana, { name: 'Otra', email: 'otra@empresa.es' });
    const copied = await addGroup(ana, other._id, GROUP_KEY, 'Camarera', changed.json<ClientCompany>().groups[0]?.fieldsValues);
    expect(copied.groups[0]?.fieldsValues['CN Ocupación']).toBe('5110');

    const deleted = await ana.request({ method: 'DELETE', url: `${groupsPath(id)}/${GROUP_KEY}` });
    expect(deleted.json<ClientCompany>().groups).toEqual([]);
    expect((await ana.request({ method: 'DELETE', url: clientPath(id) })).statusCode).toBe(204);
    expect((await ana.get(altasPaths.companies)).json().items.map((item: ClientCompany) => item._id)).toEqual([other._id]);
    expect((await ana.get(altasPaths.company.replace(':id', id))).statusCode).toBe(404);
  });
});

describe('credentials email', () => {
  it('refuses a company without groups (409)', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    expect((await saveSettings(ana, { title: 'Altas', url: 'ana' })).statusCode).toBe(200);
    const company = await createCompany(ana, { name: 'Sin Grupos S.L.', email: 'rrhh@singrupos.es' });
    const response = await ana.put(altasPaths.sendEmail.replace(':id', company._id), {});
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(noGroupMessage('Sin Grupos S.L.'));
    expect(server.mailedMessages('form_credentials')).toEqual([]);
  });

  it('mails the link and a new password that signs in; the previous one stops working; a wrong one is 401', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'asesoria-ana', 'rrhh@talleres.es');
    const first = await sendCredentials(server, advisor, company._id);
    const message = server.mailedMessages('form_credentials').at(-1);
    expect(message).toMatchObject({ to: 'rrhh@talleres.es', link: 'http://app.test/form/flows/asesoria-ana' });
    expect(message?.text).toContain('http://app.test/form/flows/asesoria-ana');
    expect(message?.text).toContain('Usuario: rrhh@talleres.es');
    expect(first).toMatch(/^[A-Za-z2-9]{12}$/);
    const stored = (await advisor.get(altasPaths.company.replace(':id', company._id))).json<ClientCompany>();
    expect(stored.credentials).toMatchObject({ enabled: true, emailSentAt: expect.any(String) as string });

    await companySignIn(server, 'asesoria-ana', 'rrhh@talleres.es', first);
    const second = await sendCredentials(server, advisor, company._id);
    expect(second).not.toBe(first);
    const stale = await new CookieJar(server.app).post(altasPaths.publicAuth, { url: '/form/flows/asesoria-ana', email: 'rrhh@talleres.es', password: first });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(BAD_CREDENTIALS_MESSAGE);
    const unknown = await new CookieJar(server.app).post(altasPaths.publicAuth, { url: '/form/flows/asesoria-ana', email: 'nadie@talleres.es', password: second });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(BAD_CREDENTIALS_MESSAGE);
    await companySignIn(server, 'asesoria-ana', 'rrhh@talleres.es', second);
    const otherFirm = await registerUser(server.app, 'eva@gestoria.es');
    expect((await otherFirm.put(altasPaths.sendEmail.replace(':id', company._id), {})).statusCode).toBe(404);
  });
});

describe('credentials email when mail fails', () => {
  it('answers 502 and writes nothing: no new password, access unchanged', async () => {
    await server.close();
    // Nothing listens on port 1: the SMTP connection is refused.
    server = await startTestServer({ smtp: { url: 'smtp://127.0.0.1:1', from: 'altas@autoasesor.es' } });
    const advisor = await registerUser(server.app, 'ana@asesoria.es');
    expect((await saveSettings(advisor, { title: 'Altas', url: 'ana' })).statusCode).toBe(200);
    const company = await createCompany(advisor, { name: 'Talleres', email: 'rrhh@talleres.es' });
    await addGroup(advisor, company._id);
    const before = server.countTables(ALTAS_TABLES);
    const response = await advisor.put(altasPaths.sendEmail.replace(':id', company._id), {});
    expect(response.statusCode).toBe(502);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
    expect(response.json().message).toBe(MAIL_FAILED_MESSAGE);
    const stored = (await advisor.get(altasPaths.company.replace(':id', company._id))).json<ClientCompany>();
    expect(stored.credentials).toMatchObject({ enabled: false, emailSentAt: null });
  }, 30_000);
});
