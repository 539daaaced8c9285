import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { altasPaths, type PublicForm, type Submission, type SubmissionFile } from '#shared/api/altas.ts';
import { CookieJar, startTestServer, type TestServer } from '../../test/harness.ts';
import { DEFAULT_ALTAS_UPLOAD_CAPS, TOO_MANY_FILES_MESSAGE } from './form-caps.ts';
import {
  ALTAS_TABLES, CCC_B, CLIENT_VALUES, GROUP_KEY, OTHER_GROUP_KEY, PDF, PNG, addGroup, companySignIn, createCompany, firmWithCompany, publicFormPath, sendCredentials, storedFiles, uploadFile,
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

  it('locks password guessing per company and client IP, tells the company once, and lets it in from elsewhere', async () => {
    await server.close();
    server = await startTestServer({ authLimits: { perAccount: { windowMs: 60_000, freeHits: 2, stepMs: 0, lockAt: 3, lockMs: 15 * 60_000 } } });
    const { anaPassword } = await twoFirms();
    const attempt = (password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
      server.app.inject({ method: 'POST', url: altasPaths.publicAuth, payload: { url: '/form/flows/ana', email: 'rrhh@talleres.es', password }, remoteAddress, headers });
    const attacker = '203.0.113.66';
    // A spoofed X-Forwarded-For changes nothing: the client is request.ip (TRUST_PROXY off here).
    expect((await attempt('mal-1', attacker, { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(401);
    expect((await attempt('mal-2', attacker, { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(401);
    expect((await attempt('mal-3', attacker, { 'x-forwarded-for': '198.51.100.3' })).statusCode).toBe(401);
    const blocked = await attempt(anaPassword, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Demasiados intentos fallidos con esta cuenta/);
    expect(blocked.headers['retry-after']).toBe('900');
    expect((await attempt('mal-4', attacker)).statusCode).toBe(429);

    // The company, from its own office, still signs in.
    expect((await attempt(anaPassword, '198.51.100.20')).statusCode).toBe(200);
    const notices = server.logLines().filter((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'account_locked');
    expect(notices.map((line) => line.mail)).toEqual([{ to: 'rrhh@talleres.es', purpose: 'account_locked' }]);
    // An unknown company locks the same way and mails nobody.
    for (const password of ['a', 'b', 'c']) expect((await server.app.inject({ method: 'POST', url: altasPaths.publicAuth, payload: { url: '/form/flows/ana', email: 'nadie@talleres.es', password }, remoteAddress: attacker })).statusCode).toBe(401);
    expect(server.logLines().filter((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'account_locked')).toHaveLength(1);
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
    expect(own).toEqual([{ _id: sent.json()._id, title: 'Lucía García Ruiz - Empresa de ana', company: 'Empresa de ana', createdAt: expect.any(String) as string, registered: false, status: 'received' }]);
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
    // Content that is not what its name says: 415, as every upload (README); nothing kept, on disk either.
    const fake = await uploadFile(company, 'ana', 'dni.png', 'texto que dice ser una imagen');
    expect(fake.statusCode).toBe(415);
    expect(fake.json().message).toBe('No es un archivo .png: su contenido es de otro tipo. Solo se admiten imágenes (PNG, JPG, WEBP) y PDF');
    const html = await uploadFile(company, 'ana', 'contrato.pdf', '<!doctype html><html><body><script>alert(1)</script></body></html>');
    expect(html.statusCode).toBe(415);
    expect(html.json()).toMatchObject({ code: 'FILE_TYPE_REFUSED', message: 'No es un archivo .pdf: su contenido es de otro tipo. Solo se admiten imágenes (PNG, JPG, WEBP) y PDF' });
    const pngAsPdf = await uploadFile(company, 'ana', 'contrato.pdf', PNG);
    expect(pngAsPdf.statusCode).toBe(415);
    const otherType = await uploadFile(company, 'ana', 'pagina.html', PDF);
    expect(otherType.statusCode).toBe(415);
    expect(otherType.json().message).toBe('Solo se admiten imágenes (PNG, JPG, WEBP) y PDF');
    const tooLarge = await uploadFile(company, 'ana', 'grande.pdf', Buffer.concat([PDF, Buffer.alloc(10_000_001)]));
    expect(tooLarge.statusCode).toBe(413);
    expect(server.countRows('altas_files')).toBe(0);
    expect(await storedFiles(server)).toEqual([]);

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
    // Once attached, it cannot be attached again (to another worker's alta: the same worker's would be the same alta).
    const reused = await company.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, NIF: '00000000T', Contrato: contract } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().details.fields).toEqual({ Contrato: 'Este archivo no se ha subido en esta sesión' });

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
  it('end after 12 hours; a timer removes them and the files they never sent; a session holds at most 20 unsent files', async () => {
    await server.close();
    let nowMs = Date.parse('2026-11-26T09:00:00.000Z');
    server = await startTestServer({ now: () => new Date(nowMs), altas: { purgeIntervalMs: 50 } });
    const { anaPassword } = await twoFirms();
    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    for (let index = 0; index < 20; index += 1) expect((await uploadFile(company, 'ana', `dni-${index}.png`, PNG)).statusCode).toBe(200);
    const over = await uploadFile(company, 'ana', 'uno-mas.png', PNG);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(TOO_MANY_FILES_MESSAGE);
    expect(server.countRows('altas_files')).toBe(20);

    nowMs += 12 * 60 * 60 * 1000 + 1000;
    expect((await company.get(publicFormPath('ana'))).json<PublicForm>().session).toBeNull();
    expect((await uploadFile(company, 'ana', 'tarde.png', PNG)).statusCode).toBe(401);
    // No sign-in needed: the timer purges them.
    await vi.waitFor(() => expect(server.countRows('altas_files')).toBe(0), { timeout: 10_000 });
    await vi.waitFor(() => expect(server.countRows('altas_client_sessions')).toBe(0), { timeout: 10_000 });
    // The pass removes the rows first and the bytes after (no row ever names missing bytes).
    await vi.waitFor(async () => expect(await storedFiles(server)).toEqual([]), { timeout: 10_000 });
  });
});

describe('upload caps (issue 39 §4)', () => {
  const signInTimes = async (times: number, password: string) => Promise.all(Array.from({ length: times }, () => companySignIn(server, 'ana', 'rrhh@talleres.es', password)));

  it('counts unsent files over all the sessions of a company: 4 sign-ins × 21 uploads store 40, not 80', async () => {
    const { anaPassword } = await twoFirms();
    const statuses: number[] = [];
    for (const session of await signInTimes(4, anaPassword)) {
      for (let index = 0; index < 21; index += 1) statuses.push((await uploadFile(session, 'ana', `dni-${index}.png`, PNG)).statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(DEFAULT_ALTAS_UPLOAD_CAPS.unsentFilesPerCompany);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(server.countRows('altas_files')).toBe(DEFAULT_ALTAS_UPLOAD_CAPS.unsentFilesPerCompany);
    expect(await storedFiles(server)).toHaveLength(DEFAULT_ALTAS_UPLOAD_CAPS.unsentFilesPerCompany);
  });

  it('caps the bytes of a company, of the firm and of a day: clear 413/429, and nothing of a refused file stays', async () => {
    await server.close();
    const size = 100_000;
    const file = Buffer.concat([PDF, Buffer.alloc(size - PDF.length)]);
    server = await startTestServer({ altas: { uploadCaps: { unsentBytesPerCompany: 2.5 * size, unsentBytesPerFirm: 3.5 * size, filesPerCompanyPerDay: 3 } } });
    const { ana, anaPassword } = await twoFirms();
    const second = await createCompany(ana.advisor, { name: 'Bar Norte', email: 'rrhh@barnorte.es' });
    await addGroup(ana.advisor, second._id);
    const secondPassword = await sendCredentials(server, ana.advisor, second._id);

    const company = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    expect((await uploadFile(company, 'ana', 'a.pdf', file)).statusCode).toBe(200);
    const kept = (await uploadFile(company, 'ana', 'b.pdf', file)).json<SubmissionFile>();
    const third = await uploadFile(company, 'ana', 'c.pdf', file);
    expect(third.statusCode).toBe(413);
    expect(third.json().message).toBe('Los archivos sin enviar de tu empresa superarían 250 kB, el máximo. Envía las altas pendientes: los archivos que no se envían se borran al cerrar la sesión o a las 12 horas.');
    // Another session of the same company counts the same files.
    const again = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    expect((await uploadFile(again, 'ana', 'd.pdf', file)).statusCode).toBe(413);

    // The firm's other company fills what is left of the firm's cap.
    const other = await companySignIn(server, 'ana', 'rrhh@barnorte.es', secondPassword);
    expect((await uploadFile(other, 'ana', 'e.pdf', file)).statusCode).toBe(200);
    const firmFull = await uploadFile(other, 'ana', 'f.pdf', file);
    expect(firmFull.statusCode).toBe(413);
    expect(firmFull.json().message).toBe('El formulario ha recibido demasiados archivos que aún no se han enviado con ninguna alta. Vuelve a intentarlo más tarde.');
    expect(server.countRows('altas_files')).toBe(3);
    expect(await storedFiles(server)).toHaveLength(3);

    // Sent files no longer count as unsent, but count in the day's: the 3rd file of the day is its last.
    const sent = await company.post(publicFormPath('ana'), { companyId: ana.company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, Contrato: kept } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await uploadFile(company, 'ana', 'g.pdf', PDF)).statusCode).toBe(200);
    const daily = await uploadFile(company, 'ana', 'h.pdf', PDF);
    expect(daily.statusCode).toBe(429);
    expect(daily.json().message).toBe('Tu empresa ha subido hoy 3 archivos, el máximo de un día. Vuelve a intentarlo mañana.');
    expect(server.countRows('altas_files')).toBe(4);
    expect(await storedFiles(server)).toHaveLength(4);
  });

  it('ends the sessions of a company whose access is turned off or that is removed, and removes their unsent files; a sign-out removes its own', async () => {
    const { ana, anaPassword } = await twoFirms();
    const session = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    const leaving = await companySignIn(server, 'ana', 'rrhh@talleres.es', anaPassword);
    expect((await uploadFile(leaving, 'ana', 'a.png', PNG)).statusCode).toBe(200);
    expect((await leaving.post(altasPaths.publicLogout)).statusCode).toBe(204);
    expect(server.countRows('altas_files')).toBe(0);

    expect((await uploadFile(session, 'ana', 'b.png', PNG)).statusCode).toBe(200);
    expect((await ana.advisor.patch(altasPaths.companies, { _id: ana.company._id, credentials: { enabled: false } })).statusCode).toBe(200);
    expect(server.countRows('altas_client_sessions')).toBe(0);
    expect(server.countRows('altas_files')).toBe(0);
    expect((await uploadFile(session, 'ana', 'c.png', PNG)).statusCode).toBe(401);
    expect((await session.get(publicFormPath('ana'))).json<PublicForm>().session).toBeNull();

    const password = await sendCredentials(server, ana.advisor, ana.company._id);
    const back = await companySignIn(server, 'ana', 'rrhh@talleres.es', password);
    expect((await uploadFile(back, 'ana', 'd.png', PNG)).statusCode).toBe(200);
    expect((await ana.advisor.request({ method: 'DELETE', url: altasPaths.client.replace(':id', ana.company._id) })).statusCode).toBe(204);
    expect(server.countRows('altas_client_sessions')).toBe(0);
    expect(server.countRows('altas_files')).toBe(0);
    expect((await uploadFile(back, 'ana', 'e.png', PNG)).statusCode).toBe(401);
    expect(await storedFiles(server)).toEqual([]);
  });
});
