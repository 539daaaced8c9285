import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { altasPaths, type A3AltaRow, type PendingSummary, type RedAltaRecord, type Submission, type SubmissionProblem } from '#shared/api/altas.ts';
import { FULL_TIME_COEFFICIENT_MESSAGE } from '#shared/altas/index.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { ALTAS_TABLES, CCC_B, CLIENT_VALUES, GROUP_KEY, OTHER_GROUP_KEY, createCompany, firmWithCompany } from './test-support.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

const submissionPath = (id: string) => altasPaths.submission.replace(':id', id);

async function newAlta(jar: CookieJar, companyId: string, values = CLIENT_VALUES): Promise<Submission> {
  const response = await jar.post(altasPaths.submissions, { companyId, groupKey: GROUP_KEY, fieldsValues: values });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Submission>();
}

describe('submissions (advisor)', () => {
  it('needs a session', async () => {
    for (const [method, url] of [['GET', altasPaths.submissions], ['POST', altasPaths.submissions], ['PATCH', submissionPath('x')], ['DELETE', submissionPath('x')], ['GET', altasPaths.pending], ['POST', altasPaths.redRecords], ['POST', altasPaths.a3Results]] as const) {
      expect((await server.app.inject({ method, url, payload: {} })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("creates a 'Nueva Alta' with the group's values under the typed ones, lists newest first and corrects it", async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const first = await newAlta(advisor, company._id);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later created_at for 'newest first'
    expect(first).toMatchObject({
      title: 'Lucía García Ruiz - Empresa de ana',
      createdBy: 'advisor',
      company: { _id: company._id, name: 'Empresa de ana' },
      fieldsValues: { nombre: 'Lucía', Jornada: 'parcial', 'Tipo Contrato*': '200' },
      chain: { redAt: null, a3At: null, companyNotifiedAt: null },
    });
    const second = await newAlta(advisor, company._id, { ...CLIENT_VALUES, nombre: 'Pablo', Sexo: '1', NIF: '00000000T' });
    const list = (await advisor.get(`${altasPaths.submissions}?flow=alta-trabajador&company=${company._id}&populate=company`)).json<{ items: Submission[] }>().items;
    expect(list.map((item) => item._id)).toEqual([second._id, first._id]);

    const patched = await advisor.patch(submissionPath(first._id), { SegundoApellido: 'Martín', 'CN Ocupación': '5110' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<Submission>()).toMatchObject({ title: 'Lucía García Martín - Empresa de ana', fieldsValues: { 'CN Ocupación': '5110', NIF: '12345678Z' } });
    expect((await advisor.request({ method: 'DELETE', url: submissionPath(second._id) })).statusCode).toBe(204);
    expect((await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items.map((item) => item._id)).toEqual([first._id]);
    expect((await advisor.patch(submissionPath(second._id), { nombre: 'X' })).statusCode).toBe(404);
  });

  it('refuses wrong values with a message per field and writes nothing', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const alta = await newAlta(advisor, company._id);
    const before = server.countTables(ALTAS_TABLES);
    const response = await advisor.post(altasPaths.submissions, { companyId: company._id, groupKey: GROUP_KEY, fieldsValues: { ...CLIENT_VALUES, 'Tipo de documento': '6', CCC: CCC_B, NAF: '', inventado: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toEqual({
      NIF: 'El número no corresponde al tipo de documento elegido',
      CCC: 'Selecciona una cuenta de cotización de la empresa',
      NAF: 'Este campo es obligatorio',
      inventado: 'Este campo no existe en el formulario',
    });
    expect(response.json().issues).toContainEqual({ path: 'fieldsValues.NIF', message: 'El número no corresponde al tipo de documento elegido' });
    expect((await advisor.post(altasPaths.submissions, { companyId: company._id, groupKey: OTHER_GROUP_KEY, fieldsValues: CLIENT_VALUES })).statusCode).toBe(404);
    expect((await advisor.post(altasPaths.submissions, { companyId: company._id, fieldsValues: 'no' })).statusCode).toBe(400);
    const badPatch = await advisor.patch(submissionPath(alta._id), { Jornada: 'completa' });
    expect(badPatch.statusCode).toBe(400);
    // Full time with the group's 500 ‰: the contract type and the coefficient no longer fit the jornada (issue 44).
    expect(badPatch.json().details.fields).toEqual({ 'Tipo Contrato*': 'Selecciona una de las opciones', 'Coeficiente Parcialidad': FULL_TIME_COEFFICIENT_MESSAGE });
    const foreignFile = await advisor.patch(submissionPath(alta._id), { 'Foto DNI': { fileId: 'f-1', name: 'dni.png', size: 1, type: 'image/png' } });
    expect(foreignFile.statusCode).toBe(400);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);
    expect((await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0]?.fieldsValues.Jornada).toBe('parcial');
  });

  it("keeps another firm's submissions out of reach (404, not listed, problems for the robot)", async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const alta = await newAlta(advisor, company._id);
    const eva = await registerUser(server.app, 'eva@gestoria.es');
    expect((await eva.get(altasPaths.submissions)).json().items).toEqual([]);
    expect((await eva.patch(submissionPath(alta._id), { nombre: 'X' })).statusCode).toBe(404);
    expect((await eva.request({ method: 'DELETE', url: submissionPath(alta._id) })).statusCode).toBe(404);
    expect((await eva.post(altasPaths.submissions, { companyId: company._id, fieldsValues: CLIENT_VALUES })).statusCode).toBe(404);
    expect((await eva.get(altasPaths.submissionFile.replace(':id', alta._id).replace(':fileId', 'x'))).statusCode).toBe(404);
    const records = (await eva.post(altasPaths.redRecords, { ids: [alta._id] })).json<{ records: RedAltaRecord[]; problems: SubmissionProblem[] }>();
    expect(records).toEqual({ records: [], problems: [{ submissionId: alta._id, title: '', message: 'No se ha encontrado esta alta' }] });
    expect((await eva.post(altasPaths.redResults, { results: [{ submissionId: alta._id, state: 'registered', message: 'OK' }] })).json()).toEqual({ updated: 0 });
    expect((await eva.get(altasPaths.pending)).json()).toEqual({ red: [], a3: [] });
    expect((await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0]?.chain.redAt).toBeNull();
  });
});

describe('the robots: RED and A3', () => {
  it('gives RED its records and problems, takes its results, and tells the company once', async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const ready = await newAlta(advisor, company._id);
    const removed = await newAlta(advisor, company._id, { ...CLIENT_VALUES, nombre: 'Pablo', NIF: '00000000T' });
    await advisor.request({ method: 'DELETE', url: submissionPath(removed._id) });
    const link = await linkPc(advisor, 'oficina');
    const device = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      server.app.inject({ method, url, headers: { authorization: `Device ${link.deviceToken}` }, ...(payload && { payload }) });
    expect((await server.app.inject({ method: 'GET', url: altasPaths.pending, headers: { authorization: 'Device nope' } })).statusCode).toBe(401);

    expect((await device('GET', altasPaths.pending)).json<PendingSummary>()).toEqual({ red: [{ _id: ready._id, title: ready.title }], a3: [] });
    const records = (await device('POST', altasPaths.redRecords, { ids: [ready._id, removed._id] })).json<{ records: RedAltaRecord[]; problems: SubmissionProblem[] }>();
    expect(records.records).toEqual([
      expect.objectContaining({ submissionId: ready._id, nafProvince: '28', nafNumber: '1234567840', ipfType: '1', ipfNumber: '012345678Z', cccProvince: '28', cccNumber: '123456742', regimen: '0111', situacion: '01', fechaReal: '2026-12-01', coeficienteParcialidad: '500' }),
    ]);
    expect(records.problems).toEqual([{ submissionId: removed._id, title: removed.title, message: 'Esta alta se ha eliminado' }]);
    expect((await device('POST', altasPaths.redRecords, { ids: [] })).statusCode).toBe(400);

    // A3 waits for RED.
    expect((await device('POST', altasPaths.a3Rows, { ids: [ready._id] })).json().problems[0].message).toBe('Esta alta aún no está registrada en Sistema RED');
    const error = await device('POST', altasPaths.redResults, { results: [{ submissionId: ready._id, state: 'error', message: '#DIL 0123: NAF no válido' }] });
    expect(error.json()).toEqual({ updated: 1 });
    // 'Ver Alta' says the last error and when it came (issue 44, 5).
    expect((await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0]).toMatchObject({ lastError: '#DIL 0123: NAF no válido', lastErrorAt: expect.any(String) as string, manualRegistration: null });

    const registered = { results: [{ submissionId: ready._id, state: 'registered', message: 'Resolución: alta admitida' }] };
    expect((await device('POST', altasPaths.redResults, registered)).json()).toEqual({ updated: 1 });
    expect((await device('POST', altasPaths.redResults, registered)).json()).toEqual({ updated: 0 });
    const mails = server.mailedMessages('alta_registered');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('rrhh@talleres.es');
    expect(mails[0]?.text).toContain('Lucía García Ruiz');
    expect(mails[0]?.text).toContain('28123456742');
    // Dates in mails as people write them (issue 44, 5).
    expect(mails[0]?.text).toContain('Fecha real de alta: 01/12/2026');
    expect(mails[0]?.text).not.toContain('2026-12-01');
    expect(mails[0]?.text).toContain('Resolución: alta admitida');
    const stored = (await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0];
    expect(stored).toMatchObject({ lastError: null, lastErrorAt: null, redResolution: 'Resolución: alta admitida', chain: { redAt: expect.any(String) as string, companyNotifiedAt: expect.any(String) as string } });
    expect((await device('POST', altasPaths.redRecords, { ids: [ready._id] })).json().problems[0].message).toBe('Esta alta ya está registrada en Sistema RED');
    expect((await device('GET', altasPaths.pending)).json<PendingSummary>()).toEqual({ red: [], a3: [{ _id: ready._id, title: ready.title }] });

    const rows = (await advisor.post(altasPaths.a3Rows, { ids: [ready._id] })).json<{ rows: A3AltaRow[]; problems: SubmissionProblem[] }>();
    expect(rows.rows).toEqual([expect.objectContaining({ submissionId: ready._id, ccc: '28123456742', nif: '12345678Z', naf: '281234567840', fechaAlta: '2026-12-01', tipoContrato: '200', grupoCotizacion: '07' })]);
    expect((await device('POST', altasPaths.a3Results, { results: [{ submissionId: ready._id, state: 'synced', error: null }] })).json()).toEqual({ updated: 1 });
    expect((await device('GET', altasPaths.pending)).json<PendingSummary>()).toEqual({ red: [], a3: [] });
    const synced = (await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0];
    expect(synced?.processed.syncA3).toEqual(expect.any(String));
    // Sent to A3 again, A3 answers it already has it: the alta stays synced, with no error and its first time.
    expect((await device('POST', altasPaths.a3Results, { results: [{ submissionId: ready._id, state: 'error', error: 'El alta ya estaba registrada' }] })).json()).toEqual({ updated: 0 });
    const after = (await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0];
    expect(after).toMatchObject({ lastError: null, processed: { syncA3: synced?.processed.syncA3 } });
  });

  it("wants the advisor's fields in a 'Nueva Alta', and keeps an alta with an AFI file out of RED pending", async () => {
    const { advisor, company } = await firmWithCompany(server, 'ana@asesoria.es', 'ana', 'rrhh@talleres.es');
    const other = await createCompany(advisor, { name: 'Sin grupo', email: 'otra@empresa.es' });
    // Created without a group: the advisor's fields are missing, so the advisor form refuses it...
    expect((await advisor.post(altasPaths.submissions, { companyId: other._id, fieldsValues: CLIENT_VALUES })).statusCode).toBe(400);
    const alta = await newAlta(advisor, company._id);
    const afi = await advisor.post(altasPaths.redResults, { results: [{ submissionId: alta._id, state: 'afi-written', message: 'AFI escrito', afiFile: 'ALTA0001.AFI' }] });
    expect(afi.json()).toEqual({ updated: 1 });
    expect((await advisor.get(altasPaths.pending)).json<PendingSummary>().red).toEqual([]);
    expect((await advisor.get(altasPaths.submissions)).json<{ items: Submission[] }>().items[0]?.afiFile).toBe('ALTA0001.AFI');
  });
});
