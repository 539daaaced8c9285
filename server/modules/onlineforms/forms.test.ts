import * as XLSX from 'xlsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMPLATE_NOT_FOUND_MESSAGE } from '#shared/api/documents.ts';
import { FORM_NOT_FOUND_MESSAGE, onlineFormsPaths, type OnlineForm, type OnlineFormSummary, type SubmissionsPage } from '#shared/api/onlineforms.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { createTemplate, formBody, formPath, GOOD_VALUES, publicPath, publishedForm, settledSubmission, SIGNATURE, storedFiles, withDb } from './test-support.ts';

describe('online forms: the advisor side', () => {
  let server: TestServer;
  let owner: CookieJar;
  let clock: Date;

  beforeEach(async () => {
    clock = new Date('2026-12-01T10:00:00Z');
    server = await startTestServer({ now: () => clock, onlineForms: { submissionsPerIpPerMinute: 1_000, linkMailsPerFirmPerDay: 3 } });
    owner = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  });
  afterEach(() => server.close());

  const submit = async (publicId: string, values: object, signature?: string) => {
    const response = await server.app.inject({ method: 'POST', url: publicPath(onlineFormsPaths.publicSubmissions, publicId), payload: { values, signature, signerName: (values as { Nombre?: string }).Nombre } });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: string }).id;
  };
  const userId = (email: string) => withDb(server, async (db) => (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id);
  const share = (formId: string, email: string, access: 'view' | 'edit') =>
    withDb(server, async (db) => {
      const [user, ownerId] = await Promise.all([userId(email), userId('ana@asesoria.es')]);
      const { group_id } = await db.selectFrom('users').select('group_id').where('id', '=', ownerId).executeTakeFirstOrThrow();
      await db.insertInto('shares').values({ id: crypto.randomUUID(), group_id, object_kind: 'form', object_id: formId, user_id: user, access, created_by: ownerId, created_at: clock.toISOString() }).execute();
    });

  it('every field must be one of the template placeholders, once (400 naming it), and nothing is written', async () => {
    const templateId = await createTemplate(owner);
    const unknown = await owner.post(onlineFormsPaths.forms, formBody(templateId, { fields: [{ key: 'Teléfono', label: 'Teléfono', type: 'tel', required: true }] }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ issues: [{ path: 'fields.0.key' }], details: { fields: { Teléfono: expect.stringContaining('Teléfono') } } });
    const twice = await owner.post(onlineFormsPaths.forms, formBody(templateId, { fields: [{ key: 'NIF', label: 'NIF', type: 'nif', required: true }, { key: 'NIF', label: 'Otro', type: 'text', required: false }] }));
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ issues: [{ path: 'fields.1.key' }] });
    const noTitle = await owner.post(onlineFormsPaths.forms, formBody(templateId, { title: '  ' }));
    expect(noTitle.statusCode).toBe(400);
    const noTemplate = await owner.post(onlineFormsPaths.forms, formBody(crypto.randomUUID()));
    expect(noTemplate.statusCode).toBe(404);
    expect(noTemplate.json()).toMatchObject({ message: TEMPLATE_NOT_FOUND_MESSAGE });
    expect(server.countRows('doc_forms')).toBe(0);

    const created = await owner.post(onlineFormsPaths.forms, formBody(templateId));
    expect(created.statusCode).toBe(201);
    const form = created.json() as OnlineForm;
    const changed = await owner.put(formPath(onlineFormsPaths.form, form.id), formBody(templateId, { title: 'Datos de alta', requireSignature: false, fields: [{ key: 'NIF', label: 'Tu NIF', type: 'nif', required: true }] }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ title: 'Datos de alta', requireSignature: false, fields: [{ key: 'NIF', label: 'Tu NIF' }], access: 'owner', ownerName: 'Ana Pérez', templateName: 'Autorización' });
    const bad = await owner.put(formPath(onlineFormsPaths.form, form.id), formBody(templateId, { fields: [{ key: 'Otro', label: 'Otro', type: 'text', required: true }] }));
    expect(bad.statusCode).toBe(400);
    expect((await owner.get(formPath(onlineFormsPaths.form, form.id))).json()).toMatchObject({ title: 'Datos de alta' });
  });

  it('access: a colleague sees only forms shared with them; view reads, edit changes, only the owner deletes; another firm sees nothing', async () => {
    const { form, publicId } = await publishedForm(owner);
    const submissionId = await submit(publicId, GOOD_VALUES, SIGNATURE);
    await settledSubmission(owner, submissionId);
    const colleague = await joinFirm(server, owner, 'luis@asesoria.es');
    const stranger = await registerUser(server.app, 'otra@firma.es', 'Otra Firma');
    const reads = [
      formPath(onlineFormsPaths.form, form.id),
      formPath(onlineFormsPaths.submissions, form.id),
      formPath(onlineFormsPaths.submissionsExport, form.id),
      formPath(onlineFormsPaths.submission, submissionId),
      formPath(onlineFormsPaths.submissionSignature, submissionId),
    ];
    for (const jar of [colleague, stranger]) {
      expect(((await jar.get(onlineFormsPaths.forms)).json() as { items: unknown[] }).items).toEqual([]);
      for (const url of reads) expect((await jar.get(url)).statusCode, url).toBe(404);
      expect((await jar.post(formPath(onlineFormsPaths.close, form.id))).statusCode).toBe(404);
      expect((await jar.request({ method: 'DELETE', url: formPath(onlineFormsPaths.form, form.id) })).statusCode).toBe(404);
      expect((await jar.request({ method: 'DELETE', url: formPath(onlineFormsPaths.submission, submissionId) })).statusCode).toBe(404);
    }
    // Nor a form from a template that is not theirs.
    expect((await stranger.post(onlineFormsPaths.forms, formBody(form.templateId ?? ''))).statusCode).toBe(404);
    expect((await colleague.post(onlineFormsPaths.forms, formBody(form.templateId ?? ''))).statusCode).toBe(404);

    await share(form.id, 'luis@asesoria.es', 'view');
    const listed = (await colleague.get(onlineFormsPaths.forms)).json() as { items: OnlineFormSummary[] };
    expect(listed.items).toMatchObject([{ id: form.id, access: 'view', ownerName: 'Ana Pérez', submissions: 1 }]);
    for (const url of reads) expect((await colleague.get(url)).statusCode, url).toBe(200);
    expect((await colleague.put(formPath(onlineFormsPaths.form, form.id), formBody(form.templateId ?? ''))).statusCode).toBe(403);
    expect((await colleague.post(formPath(onlineFormsPaths.close, form.id))).statusCode).toBe(403);
    expect((await colleague.request({ method: 'DELETE', url: formPath(onlineFormsPaths.submission, submissionId) })).statusCode).toBe(403);

    await withDb(server, (db) => db.updateTable('shares').set({ access: 'edit' }).where('object_id', '=', form.id).execute());
    expect((await colleague.put(formPath(onlineFormsPaths.form, form.id), formBody(form.templateId ?? '', { title: 'Cambiado' }))).statusCode).toBe(200);
    expect((await colleague.request({ method: 'DELETE', url: formPath(onlineFormsPaths.form, form.id) })).statusCode).toBe(403);
    expect(server.countRows('doc_submissions')).toBe(1);
  });

  it('the list filters by text and Madrid days, pages newest first, and exports what it shows as .xlsx', async () => {
    const { form, publicId } = await publishedForm(owner, { requireSignature: false });
    // 23:30 in Madrid on 1 December, then 00:30 on the 2nd.
    clock = new Date('2026-12-01T22:30:00Z');
    await submit(publicId, { ...GOOD_VALUES, Nombre: 'Pilar Ruiz', Comentarios: 'Pago al 100% hecho' });
    clock = new Date('2026-12-01T23:30:00Z');
    await submit(publicId, { ...GOOD_VALUES, Nombre: 'Jorge Sanz', 'Razón social': 'Frutas Sanz SL' });
    clock = new Date('2026-12-03T09:00:00Z');
    await submit(publicId, { ...GOOD_VALUES, Nombre: 'Marta Gil' });
    // Back to when the owner signed in (the submissions are public: no session aged meanwhile).
    clock = new Date('2026-12-01T10:00:00Z');
    const list = async (query: string) => {
      const response = await owner.get(`${formPath(onlineFormsPaths.submissions, form.id)}${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as SubmissionsPage;
    };
    const names = (page: SubmissionsPage) => page.items.map((item) => item.values.Nombre);
    expect(names(await list(''))).toEqual(['Marta Gil', 'Jorge Sanz', 'Pilar Ruiz']);
    expect(names(await list('?q=SANZ'))).toEqual(['Jorge Sanz']);
    expect(names(await list('?q=100%25'))).toEqual(['Pilar Ruiz']);
    expect(names(await list('?q=%25'))).toEqual(['Pilar Ruiz']);
    expect(names(await list('?q=_'))).toEqual([]);
    expect(names(await list('?from=2026-12-02'))).toEqual(['Marta Gil', 'Jorge Sanz']);
    expect(names(await list('?from=2026-12-01&to=2026-12-01'))).toEqual(['Pilar Ruiz']);
    expect(names(await list('?to=2026-12-02&q=a'))).toEqual(['Jorge Sanz', 'Pilar Ruiz']);
    for (const bad of ['?from=01/12/2026', '?page=0', '?page=abc', `?q=${'x'.repeat(201)}`]) {
      expect((await owner.get(`${formPath(onlineFormsPaths.submissions, form.id)}${bad}`)).statusCode, bad).toBe(400);
    }

    const exported = await owner.get(`${formPath(onlineFormsPaths.submissionsExport, form.id)}?from=2026-12-02`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="respuestas-alta-de-cliente-\d{4}-\d\d-\d\d\.xlsx"$/);
    const book = XLSX.read(exported.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0] ?? ''] ?? {}, { header: 1, raw: false });
    expect(rows[0]).toEqual(['Fecha', 'Nombre y apellidos', 'NIF', 'Empresa', 'Fecha de alta', 'Acepto', 'Comentarios', 'Firmante', 'Documento']);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(expect.arrayContaining(['03/12/2026 10:00', 'Marta Gil', '12345678Z', '01/12/2026', 'Sí']));
    expect(rows[2]).toEqual(expect.arrayContaining(['02/12/2026 00:30', 'Jorge Sanz', 'Frutas Sanz SL']));

    // Paging: 55 more, stored straight in the database.
    await withDb(server, async (db) => {
      const row = await db.selectFrom('doc_submissions').selectAll().where('form_id', '=', form.id).executeTakeFirstOrThrow();
      const extra = Array.from({ length: 55 }, (_, index) => ({ ...row, id: crypto.randomUUID(), document_id: null, values: JSON.stringify({ ...GOOD_VALUES, Nombre: `Cliente ${index}` }), search_text: `cliente ${index}`, created_at: new Date(Date.UTC(2026, 10, 1, 8, index)).toISOString() }));
      await db.insertInto('doc_submissions').values(extra).execute();
    });
    const first = await list('');
    expect(first).toMatchObject({ total: 58, page: 1, pageSize: 50 });
    expect(first.items).toHaveLength(50);
    const second = await list('?page=2');
    expect(names(second)).toEqual(['Cliente 7', 'Cliente 6', 'Cliente 5', 'Cliente 4', 'Cliente 3', 'Cliente 2', 'Cliente 1', 'Cliente 0']);
    // 'Cliente 5' and 'Cliente 50'…'Cliente 54'.
    expect((await list('?q=cliente 5')).total).toBe(6);
  });

  it("mails a published form's link to each address once, within the firm's daily cap", async () => {
    const templateId = await createTemplate(owner);
    const draft = (await owner.post(onlineFormsPaths.forms, formBody(templateId))).json() as OnlineForm;
    const sendPath = formPath(onlineFormsPaths.sendLink, draft.id);
    expect((await owner.post(sendPath, { emails: ['cliente@empresa.es'], message: '' })).statusCode).toBe(409);
    await owner.post(formPath(onlineFormsPaths.publish, draft.id));
    expect((await owner.post(sendPath, { emails: ['no-es-correo'], message: '' })).statusCode).toBe(400);
    expect((await owner.post(sendPath, { emails: [], message: '' })).statusCode).toBe(400);
    const sent = await owner.post(sendPath, { emails: ['cliente@empresa.es', 'CLIENTE@empresa.es', 'otra@empresa.es'], message: 'Necesitamos tus datos antes del viernes <b>ya</b>' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ sent: 2 });
    const mails = server.mailedMessages('online_form_link');
    expect(mails.map((mail) => mail.to)).toEqual(['cliente@empresa.es', 'otra@empresa.es']);
    expect(mails[0]?.link).toBe(`http://app.test${draft.publicPath}`);
    expect(mails[0]?.text).toContain(mails[0]?.link ?? '-');
    expect(mails[0]?.text).toContain('Necesitamos tus datos antes del viernes <b>ya</b>');
    // The HTML part has the link to click and written out, and the advisor's words escaped.
    const html = server.logLines().map((line) => (line.mail as { purpose?: string; html?: string } | undefined)).find((mail) => mail?.purpose === 'online_form_link')?.html ?? '';
    expect(html).toContain(`<a href="http://app.test${draft.publicPath}"`);
    expect(html).toContain('antes del viernes &#60;b&#62;ya&#60;/b&#62;');
    expect(html).not.toContain('<b>ya</b>');
    const capped = await owner.post(sendPath, { emails: ['a@empresa.es', 'b@empresa.es'], message: '' });
    expect(capped.statusCode).toBe(429);
    expect(capped.json()).toMatchObject({ code: 'TOO_MANY_MAILS' });
    expect(server.mailedMessages('online_form_link')).toHaveLength(2);
  });

  it('deleting a submission removes its signature and document; deleting a form removes every submission and its files', async () => {
    const { form, publicId } = await publishedForm(owner);
    const ids = [await submit(publicId, GOOD_VALUES, SIGNATURE), await submit(publicId, { ...GOOD_VALUES, Nombre: 'Otro Cliente' }, SIGNATURE)];
    for (const id of ids) expect((await settledSubmission(owner, id)).documentStatus).toBe('ready');
    const documentFiles = async () => (await storedFiles(server)).filter((file) => /\/(onlineforms|documents)\//.test(file));
    // Each: a signature, a PDF and a .docx.
    expect(await documentFiles()).toHaveLength(6);

    const removed = await owner.request({ method: 'DELETE', url: formPath(onlineFormsPaths.submission, ids[0] ?? '') });
    expect(removed.statusCode).toBe(204);
    expect((await owner.get(formPath(onlineFormsPaths.submission, ids[0] ?? ''))).statusCode).toBe(404);
    expect(server.countTables(['doc_submissions', 'doc_documents'])).toEqual({ doc_submissions: 1, doc_documents: 1 });
    expect(await documentFiles()).toHaveLength(3);

    await joinFirm(server, owner, 'luis@asesoria.es');
    await share(form.id, 'luis@asesoria.es', 'view');
    expect(server.countRows('shares')).toBe(1);
    const gone = await owner.request({ method: 'DELETE', url: formPath(onlineFormsPaths.form, form.id) });
    expect(gone.statusCode).toBe(204);
    expect((await owner.get(formPath(onlineFormsPaths.form, form.id))).json()).toMatchObject({ message: FORM_NOT_FOUND_MESSAGE });
    expect(server.countTables(['doc_forms', 'doc_submissions', 'doc_documents', 'shares'])).toEqual({ doc_forms: 0, doc_submissions: 0, doc_documents: 0, shares: 0 });
    expect(await documentFiles()).toEqual([]);
    expect((await server.app.inject({ method: 'GET', url: publicPath(onlineFormsPaths.publicForm, publicId) })).statusCode).toBe(404);
  });
});
