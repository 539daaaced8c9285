import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { altasPaths, type PublicForm, type Submission, type SubmissionFile } from '#shared/api/altas.ts';
import { CookieJar, startTestServer, type TestServer } from '../../test/harness.ts';
import {
  ALTAS_TABLES, CCC_B, CLIENT_VALUES, GROUP_KEY, OTHER_GROUP_KEY, PDF, PNG, addGroup, companySignIn, firmWithCompany, publicFormPath, sendCredentials, uploadFile,
} from './test-support.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

/** Firm 'ana' with company A (signed in) and firm 'eva' with its own company. */
async function twoFirms() {
  const ana = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
  const anaPassword = await sendCredentials(server, ana.advisor, ana.company._id);
  const eva = await firmWithCompany(server, 'eva@gestoria.es', 'eva', 'rrhh@bar.es');
  const evaPassword = await sendCredentials(server, eva.advisor, eva.company._id);
  return { ana, anaPassword, eva, evaPassword };
}

describe("the company's form", () => {
  it('shows title and no session without the cookie, and the form after signing in', async () => {
    const { ana, anaPassword } = await twoFirms();
    const anonymous = await server.app.inject({ method: 'GET', url: publicFormPath('ana') });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json<PublicForm>()).toEqual({ title: 'Altas de trabajadores', logo: null, session: null });
    expect((await server.app.inject({ method: 'GET', url: publicFormPath('no-existe') })).statusCode).toBe(404);

    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const cookie = (await company.post(altasPaths.publicLogout)).statusCode; // a sign-out, then in again
    expect(cookie).toBe(204);
    expect((await company.get(publicFormPath('ana'))).json<PublicForm>().session).toBeNull();
    const signedIn = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const form = (await signedIn.get(publicFormPath('ana'))).json<PublicForm>();
    expect(form.session?.email).toBe('rrhh@talleres.es');
    expect(form.session?.companies).toEqual([{ _id: ana.company._id, name: 'Empresa de ana', ccc: [{ label: 'Centro', key: '28123456742' }], groups: [{ key: GROUP_KEY, text: 'Camarero/a' }] }]);
    expect(Object.keys(form.session?.fields ?? {})).not.toContain('Jornada');
    expect(form.session?.formPages.map((page) => page.title)).toEqual(['Datos personales', 'Contrato', 'Documentos']);
    // The cookie of ana's form means nothing on eva's.
    expect((await signedIn.get(publicFormPath('eva'))).json<PublicForm>().session).toBeNull();
  });

  it('sets an HttpOnly SameSite=Strict cookie on the form API path, and refuses wrong credentials the same way', async () => {
    const { anaPassword } = await twoFirms();
    const response = await server.app.inject({ method: 'POST', url: altasPaths.publicAuth, payload: { url: '/form/flows/ana', email: 'rrhh@talleres.es', password: anaPassword } });
    const cookie = response.cookies[0];
    expect(cookie).toMatchObject({ name: 'aa_form_session', httpOnly: true, sameSite: 'Strict', path: '/api/form-to-flow-form' });
    for (const payload of [
      { url: '/form/flows/ana', email: 'rrhh@talleres.es', password: 'incorrecta' },
      { url: '/form/flows/eva', email: 'rrhh@talleres.es', password: anaPassword },
      { url: '/form/flows/ana', email: 'nadie@talleres.es', password: anaPassword },
    ]) {
      const refused = await server.app.inject({ method: 'POST', url: altasPaths.publicAuth, payload });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe('El email o la contraseña no son correctos');
    }
    expect((await server.app.inject({ method: 'POST', url: altasPaths.publicAuth, payload: { url: '/form/flows/ana', email: 'x' } })).statusCode).toBe(400);
    // Another site cannot post to the form in the company's name (the app's origin check).
    const crossSite = await server.app.inject({ method: 'POST', url: publicFormPath('ana'), headers: { origin: 'https://evil.example', cookie: `aa_form_session=${cookie?.value ?? ''}` }, payload: {} });
    expect(crossSite.statusCode).toBe(403);
  });

  it('limits password guessing per email', async () => {
    await server.close();
    server = await startTestServer({ authLimits: { perAccount: { windowMs: 60_000, freeHits: 2, stepMs: 0, lockAt: 3, lockMs: 60_000 } } });
    const { anaPassword } = await twoFirms();
    const attempt = (password: string) => server.app.inject({ method: 'POST', url: altasPaths.publicAuth, payload: { url: '/form/flows/ana', email: 'rrhh@talleres.es', password } });
    expect((await attempt('mal-1')).statusCode).toBe(401);
    expect((await attempt('mal-2')).statusCode).toBe(401);
    expect((await attempt('mal-3')).statusCode).toBe(401);
    const blocked = await attempt(anaPassword);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('takes a submission with its own values checked and the group values merged, and shows the company only its own', async () => {
    const { ana, anaPassword, eva, evaPassword } = await twoFirms();
    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const before = server.countTables(ALTAS_TABLES);
    const refusals = [
      { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, CCC: CCC_B } },
      { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, Jornada: 'completa' } },
      { companyId: ana.company._id, groupKey: OTHER_GROUP_KEY, fieldsValues: CLIENT_VALUES },
    ];
    for (const payload of refusals) expect((await company.post(publicFormPath('ana'), payload)).statusCode).toBe(400);
    expect((await company.post(publicFormPath('ana'), { companyId: eva.company._id, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES })).statusCode).toBe(404);
    expect((await new CookieJar(server.app).post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: CLIENT_VALUES })).statusCode).toBe(401);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);

    const sent = await company.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, nombre: ' Lucía ', 'Fecha Alta': '01/12/2026' } });
    expect(sent.statusCode, sent.body).toBe(201);
    const stored = (await ana.advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items;
    expect(stored).toEqual([
      expect.objectContaining({ _id: sent.json()._id, createdBy: 'client', groupKey: GROUP_KEY, fieldsValues: expect.objectContaining({ nombre: 'Lucía', 'Fecha Alta': '2026-12-01', Jornada: 'parcial', 'Grupo Cotización': '07' }) as unknown }),
    ]);

    // Eva's company sees nothing of ana's; ana's company sees its own, registered or not.
    const evaCompany = await companySignIn(server, 'eva', 'rrhh@bar.es', evaPassword);
    expect((await evaCompany.get(publicFormPath('eva'))).json<PublicForm>().session?.submissions).toEqual([]);
    const own = (await company.get(publicFormPath('ana'))).json<PublicForm>().session?.submissions;
    expect(own).toEqual([{ _id: sent.json()._id, title: 'Lucía García Ruiz - Empresa de ana', company: 'Empresa de ana', createdAt: expect.any(String) as string, registered: false }]);
  });

  it("lists a company's alta with incomplete group values as a problem for RED", async () => {
    const { ana, anaPassword } = await twoFirms();
    const partialGroup = OTHER_GROUP_KEY;
    await addGroup(ana.advisor, ana.company._id, partialGroup, 'Cocinero/a', { Jornada: 'completa' });
    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const sent = await company.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: partialGroup, fieldsValues: CLIENT_VALUES });
    expect(sent.statusCode, sent.body).toBe(201);
    const records = (await ana.advisor.post(altasPaths.redRecords, { ids: [sent.json()._id] })).json();
    expect(records.records).toEqual([]);
    expect(records.problems[0].message).toBe('Faltan datos o no son válidos: Tipo de contrato, Grupo de cotización, Código de convenio colectivo, Ocupación (CNO)');
  });
});

describe("the company's files", () => {
  it('stores images and PDFs judged by their bytes, only for a signed-in company, and attaches only its own session files', async () => {
    const { ana, anaPassword } = await twoFirms();
    expect((await uploadFile(new CookieJar(server.app), 'ana', 'dni.png', PNG)).statusCode).toBe(401);
    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const fake = await uploadFile(company, 'ana', 'dni.png', 'texto que dice ser una imagen');
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toBe('Solo se admiten imágenes (PNG, JPG, WEBP) y PDF');
    expect(server.countRows('altas_files')).toBe(0);

    const photo = await uploadFile(company, 'ana', 'dni.png', PNG);
    expect(photo.statusCode, photo.body).toBe(200);
    const photoFile = photo.json<SubmissionFile>();
    expect(photoFile).toMatchObject({ name: 'dni.png', type: 'image/png', size: PNG.length });
    const contract = (await uploadFile(company, 'ana', 'contrato.pdf', PDF)).json<SubmissionFile>();
    expect(contract.type).toBe('application/pdf');

    // A second session of the same company cannot use the first session's file.
    const otherSession = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const stolen = await otherSession.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, 'Foto DNI': photoFile } });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().details.fields).toEqual({ 'Foto DNI': 'Este archivo no se ha subido en esta sesión' });

    const sent = await company.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, 'Foto DNI': { ...photoFile, name: 'otro.exe' }, Contrato: contract } });
    expect(sent.statusCode, sent.body).toBe(201);
    const submission = (await ana.advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0];
    expect(submission?.fieldsValues['Foto DNI']).toEqual(photoFile);
    // Once attached, it cannot be attached again.
    expect((await company.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, Contrato: contract } })).statusCode).toBe(400);

    const download = await ana.advisor.get(altasPaths.submissionFile.replace(':id', sent.json()._id).replace(':fileId', photoFile.fileId));
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(PNG)).toBe(true);

    // Removing the submission deletes its files.
    expect((await ana.advisor.request({ method: 'DELETE', url: altasPaths.submission.replace(':id', sent.json()._id) })).statusCode).toBe(204);
    expect(server.countRows('altas_files')).toBe(0);
  });
});

describe('form sessions over time', () => {
  it('end after 12 hours; files never sent are removed at a later sign-in; a session holds at most 20 unsent files', async () => {
    await server.close();
    let nowMs = Date.parse('2026-11-26T09:00:00.000Z');
    server = await startTestServer({ now: () => new Date(nowMs) });
    const { anaPassword } = await twoFirms();
    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    for (let index = 0; index < 20; index += 1) expect((await uploadFile(company, 'ana', `dni-${index}.png`, PNG)).statusCode).toBe(200);
    const over = await uploadFile(company, 'ana', 'uno-mas.png', PNG);
    expect(over.statusCode).toBe(429);
    expect(server.countRows('altas_files')).toBe(20);

    nowMs += 12 * 60 * 60 * 1000 + 1000;
    expect((await company.get(publicFormPath('ana'))).json<PublicForm>().session).toBeNull();
    expect((await uploadFile(company, 'ana', 'tarde.png', PNG)).statusCode).toBe(401);
    await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    expect(server.countRows('altas_files')).toBe(0);
    expect(server.countRows('altas_client_sessions')).toBe(1);
  });
});
