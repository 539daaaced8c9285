import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FORM_CLOSED_MESSAGE, FORM_NOT_FOUND_MESSAGE, onlineFormsPaths, SIGNATURE_REFUSED_MESSAGE, SIGNATURE_REQUIRED_MESSAGE, type PublicOnlineForm } from '#shared/api/onlineforms.ts';
import { MANDATORY_MESSAGE } from '#shared/validation/validate.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import {
  eventually, formBody, formPath, GOOD_VALUES, makePng, pngDataUrl, publicPath, publishedForm, settledSubmission, SIGNATURE, storedFiles, createTemplate, TEMPLATE_CONTENT, withDb,
} from './test-support.ts';

const SUBMISSION_TABLES = ['doc_submissions', 'doc_documents'] as const;

describe('online forms: the public path', () => {
  let server: TestServer;
  let owner: CookieJar;

  beforeEach(async () => {
    server = await startTestServer({ onlineForms: { submissionsPerIpPerMinute: 1_000 } });
    owner = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  });
  afterEach(() => server.close());

  const submit = (publicId: string, payload: object, remoteAddress = '10.0.0.1') =>
    server.app.inject({ method: 'POST', url: publicPath(onlineFormsPaths.publicSubmissions, publicId), payload, remoteAddress });
  const publicGet = (publicId: string) => server.app.inject({ method: 'GET', url: publicPath(onlineFormsPaths.publicForm, publicId) });

  it('a draft is unknown; once published the client fills it, signs it, and gets a document; the owner is told', async () => {
    const templateId = await createTemplate(owner);
    const draft = await owner.post(onlineFormsPaths.forms, formBody(templateId));
    expect(draft.statusCode, draft.body).toBe(201);
    const form = draft.json() as { id: string; publicPath: string; status: string };
    expect(form.status).toBe('draft');
    const publicId = form.publicPath.split('/').at(-1) ?? '';
    expect(publicId).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect((await publicGet(publicId)).statusCode).toBe(404);
    expect((await submit(publicId, { values: GOOD_VALUES, signature: SIGNATURE })).statusCode).toBe(404);
    expect(server.countRows('doc_submissions')).toBe(0);

    expect((await owner.post(formPath(onlineFormsPaths.publish, form.id))).statusCode).toBe(200);
    // Later edits of the template never change what clients sign.
    const edited = await owner.put(`/api/documentcreator/templates/${templateId}`, { name: 'Otra', description: '', categoryId: null, content: { ...TEMPLATE_CONTENT, blocks: TEMPLATE_CONTENT.blocks.slice(0, 1) } });
    expect(edited.statusCode, edited.body).toBe(200);
    const kept = await withDb(server, (db) => db.selectFrom('doc_forms').select(['template_content', 'template_name']).where('id', '=', form.id).executeTakeFirstOrThrow());
    expect(JSON.parse(kept.template_content)).toEqual(TEMPLATE_CONTENT);
    expect(kept.template_name).toBe('Autorización');

    const shown = await publicGet(publicId);
    expect(shown.statusCode, shown.body).toBe(200);
    const page = shown.json() as PublicOnlineForm;
    expect(Object.keys(page).sort()).toEqual(['description', 'fields', 'firmName', 'requireSignature', 'title']);
    expect(page).toMatchObject({ title: 'Alta de cliente', requireSignature: true });
    expect(page.fields.map((field) => field.key)).toEqual(['Nombre', 'NIF', 'Razón social', 'Fecha de alta', 'Acepta', 'Comentarios']);
    expect(shown.body).not.toContain('ana@asesoria.es');

    const accepted = await submit(publicId, { values: { ...GOOD_VALUES, 'Fecha de alta': '01/12/2026', NIF: '12345678-z' }, signerName: ' Lucía Martín ', signature: SIGNATURE });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const receipt = accepted.json() as { id: string; receivedAt: string };
    expect(Number.isNaN(Date.parse(receipt.receivedAt))).toBe(false);

    const files = await storedFiles(server);
    expect(files.filter((file) => file.endsWith(`${receipt.id}.png`))).toHaveLength(1);
    const submission = await settledSubmission(owner, receipt.id);
    expect(submission).toMatchObject({ formId: form.id, signerName: 'Lucía Martín', hasSignature: true, documentStatus: 'ready' });
    // Stored as the shared rules normalise them.
    expect(submission.values).toMatchObject({ NIF: '12345678Z', 'Fecha de alta': '2026-12-01', Acepta: true });
    const document = await withDb(server, (db) => db.selectFrom('doc_documents').selectAll().where('id', '=', submission.documentId ?? '').executeTakeFirstOrThrow());
    expect(document).toMatchObject({ submission_id: receipt.id, owner_user_id: null, company: 'Talleres Norte SL', status: 'ready' });
    expect(document.name).toMatch(/^Alta de cliente - Lucía Martín - \d\d-\d\d-\d{4}$/);
    expect(document.pdf_size).toBeGreaterThan(0);

    const mail = await eventually(() => server.mailedMessages('online_form_submission').at(0));
    expect(mail.to).toBe('ana@asesoria.es');
    expect(mail.link).toBe(`http://app.test/documentcreator?form=${form.id}`);
    expect(mail.text).toContain(mail.link);
    const html = server.logLines().map((line) => (line.mail as { purpose?: string; html?: string } | undefined)).find((entry) => entry?.purpose === 'online_form_submission')?.html ?? '';
    expect(html).toContain(`href="http://app.test/documentcreator?form=${form.id}"`);

    const signature = await owner.get(formPath(onlineFormsPaths.submissionSignature, receipt.id));
    expect(signature.statusCode).toBe(200);
    expect(signature.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff' });
    expect(signature.headers['content-disposition']).toMatch(/^attachment;/);
    expect(signature.rawPayload.equals(Buffer.from(SIGNATURE.split(',')[1] ?? '', 'base64'))).toBe(true);
  });

  it('bad values answer 400 with a message per field, and nothing is written', async () => {
    const { publicId } = await publishedForm(owner);
    const before = await storedFiles(server);
    const refused = await submit(publicId, { values: { ...GOOD_VALUES, NIF: '12345678A', Nombre: '  ', Acepta: false }, signature: SIGNATURE });
    expect(refused.statusCode, refused.body).toBe(400);
    const body = refused.json() as { code: string; details: { fields: Record<string, string> }; issues: Array<{ path: string }> };
    expect(body.code).toBe('VALIDATION');
    expect(Object.keys(body.details.fields).sort()).toEqual(['Acepta', 'NIF', 'Nombre']);
    expect(body.details.fields.Nombre).toBe(MANDATORY_MESSAGE);
    expect(body.issues.map((issue) => issue.path)).toContain('values.NIF');
    expect(server.countTables(SUBMISSION_TABLES)).toEqual({ doc_submissions: 0, doc_documents: 0 });
    expect(await storedFiles(server)).toEqual(before);
  });

  it('a missing, forged, oversized or non-PNG signature is refused with nothing kept', async () => {
    const { publicId } = await publishedForm(owner);
    const before = await storedFiles(server);
    const missing = await submit(publicId, { values: GOOD_VALUES });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'SIGNATURE_REQUIRED', message: SIGNATURE_REQUIRED_MESSAGE });

    const png = makePng(300, 100);
    const badCrc = Buffer.from(png);
    badCrc[png.length - 20] = (badCrc[png.length - 20] ?? 0) ^ 0xff;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Buffer.alloc(200)]);
    const refusedSignatures = [
      pngDataUrl(jpeg),
      pngDataUrl(makePng(2_500, 10)),
      pngDataUrl(makePng(10, 1_200)),
      pngDataUrl(badCrc),
      pngDataUrl(png.subarray(0, png.length - 12)),
      pngDataUrl(Buffer.concat([png, Buffer.from('<script>alert(1)</script>')])),
      `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}`,
      'data:image/png;base64,@@@@',
      '<svg onload=alert(1)>',
    ];
    for (const signature of refusedSignatures) {
      const response = await submit(publicId, { values: GOOD_VALUES, signature });
      expect(response.statusCode, signature.slice(0, 40)).toBe(400);
      expect(response.json()).toMatchObject({ message: SIGNATURE_REFUSED_MESSAGE });
    }
    // Past the data URL's cap, the body's own cap answers first or the schema does.
    const huge = await submit(publicId, { values: GOOD_VALUES, signature: `data:image/png;base64,${'A'.repeat(400_000)}` });
    expect([400, 413]).toContain(huge.statusCode);
    expect(server.countTables(SUBMISSION_TABLES)).toEqual({ doc_submissions: 0, doc_documents: 0 });
    expect(await storedFiles(server)).toEqual(before);
  });

  it('a closed form answers 410 and takes nothing; published again it takes answers', async () => {
    const { form, publicId } = await publishedForm(owner, { requireSignature: false });
    expect((await owner.post(formPath(onlineFormsPaths.close, form.id))).json()).toMatchObject({ status: 'closed' });
    const shown = await publicGet(publicId);
    expect(shown.statusCode).toBe(410);
    expect(shown.json()).toMatchObject({ message: FORM_CLOSED_MESSAGE });
    expect((await submit(publicId, { values: GOOD_VALUES })).statusCode).toBe(410);
    expect(server.countRows('doc_submissions')).toBe(0);
    await owner.post(formPath(onlineFormsPaths.publish, form.id));
    const accepted = await submit(publicId, { values: GOOD_VALUES });
    expect(accepted.statusCode, accepted.body).toBe(201);
    // Without a signature the document is still made.
    expect((await settledSubmission(owner, (accepted.json() as { id: string }).id)).hasSignature).toBe(false);
  });

  it('an unknown or malformed public id is 404 alike', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', '..%2F..%2Fetc']) {
      const response = await publicGet(id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: FORM_NOT_FOUND_MESSAGE });
    }
  });
});

describe('online forms: caps and rate limits', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it('a form takes so many submissions a day, and the firm so many; the next is 429 and leaves nothing', async () => {
    server = await startTestServer({ onlineForms: { submissionsPerIpPerMinute: 1_000, submissionsPerFormPerDay: 2, submissionsPerFirmPerDay: 3 } });
    const owner = await registerUser(server.app, 'ana@asesoria.es');
    const first = await publishedForm(owner, { requireSignature: false });
    const second = await publishedForm(owner, { requireSignature: false });
    const send = (publicId: string) => server!.app.inject({ method: 'POST', url: publicPath(onlineFormsPaths.publicSubmissions, publicId), payload: { values: GOOD_VALUES } });
    expect((await send(first.publicId)).statusCode).toBe(201);
    expect((await send(first.publicId)).statusCode).toBe(201);
    const formFull = await send(first.publicId);
    expect(formFull.statusCode).toBe(429);
    expect(formFull.json()).toMatchObject({ code: 'FORM_FULL_TODAY' });
    expect((await send(second.publicId)).statusCode).toBe(201);
    const firmFull = await send(second.publicId);
    expect(firmFull.statusCode).toBe(429);
    expect(firmFull.json()).toMatchObject({ code: 'FIRM_FULL_TODAY' });
    expect(server.countRows('doc_submissions')).toBe(3);
  });

  it('the bytes a form holds are capped (413) and the refused signature is not kept', async () => {
    const signatureBytes = makePng(300, 100).length;
    server = await startTestServer({ onlineForms: { submissionsPerIpPerMinute: 1_000, bytesPerForm: signatureBytes + 600 } });
    const owner = await registerUser(server.app, 'ana@asesoria.es');
    const { publicId } = await publishedForm(owner);
    const send = () => server!.app.inject({ method: 'POST', url: publicPath(onlineFormsPaths.publicSubmissions, publicId), payload: { values: GOOD_VALUES, signature: SIGNATURE } });
    expect((await send()).statusCode).toBe(201);
    const files = await storedFiles(server);
    const refused = await send();
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'STORAGE_CAP' });
    expect(refused.json<{ message: string }>().message).toMatch(/Este formulario ya guarda/);
    expect(server.countRows('doc_submissions')).toBe(1);
    expect((await storedFiles(server)).filter((file) => file.endsWith('.png'))).toEqual(files.filter((file) => file.endsWith('.png')));
  });

  it("the firm's bytes count the documents its submissions generated too", async () => {
    server = await startTestServer({ onlineForms: { submissionsPerIpPerMinute: 1_000, bytesPerFirm: 3_000 } });
    const owner = await registerUser(server.app, 'ana@asesoria.es');
    const first = await publishedForm(owner, { requireSignature: false });
    const second = await publishedForm(owner, { requireSignature: false });
    const send = (publicId: string) => server!.app.inject({ method: 'POST', url: publicPath(onlineFormsPaths.publicSubmissions, publicId), payload: { values: GOOD_VALUES } });
    const accepted = await send(first.publicId);
    expect(accepted.statusCode).toBe(201);
    const { documentId } = await settledSubmission(owner, (accepted.json() as { id: string }).id);
    const sizes = await withDb(server, (db) => db.selectFrom('doc_documents').select(['pdf_size', 'docx_size']).where('id', '=', documentId ?? '').executeTakeFirstOrThrow());
    expect((sizes.pdf_size ?? 0) + (sizes.docx_size ?? 0)).toBeGreaterThan(3_000);
    const refused = await send(second.publicId);
    expect(refused.statusCode).toBe(413);
    expect(refused.json<{ message: string }>().message).toMatch(/Los formularios de esta asesoría ya guardan/);
    expect(server.countRows('doc_submissions')).toBe(1);
  });

  it('one client address sends so many a minute (429), another still can', async () => {
    server = await startTestServer({ onlineForms: { submissionsPerIpPerMinute: 2 } });
    const owner = await registerUser(server.app, 'ana@asesoria.es');
    const { publicId } = await publishedForm(owner, { requireSignature: false });
    const send = (remoteAddress: string) => server!.app.inject({ method: 'POST', url: publicPath(onlineFormsPaths.publicSubmissions, publicId), payload: { values: GOOD_VALUES }, remoteAddress });
    expect((await send('10.0.0.7')).statusCode).toBe(201);
    expect((await send('10.0.0.7')).statusCode).toBe(201);
    const limited = await send('10.0.0.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await send('10.0.0.8')).statusCode).toBe(201);
    expect(server.countRows('doc_submissions')).toBe(3);
  });
});
