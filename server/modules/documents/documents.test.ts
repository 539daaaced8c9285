import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentsPaths, DOCUMENT_NOT_READY_MESSAGE, type DocumentsPage, type GeneratedDocument, type Starter, type Template } from '#shared/api/documents.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { createTemplate, DOCUMENT_TABLES, generateAndWait, path, pdfImages, pdfPages, pdfText, storedDocumentFiles, templateBody, TINY_PNG } from './test-support.ts';

const PNG_DATA_URL = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

let server: TestServer;
let ana: CookieJar;

beforeEach(async () => {
  server = await startTestServer({ now: () => new Date('2026-03-10T10:00:00.000Z') });
  ana = await registerUser(server.app, 'ana@asesoria-uno.es');
});
afterEach(async () => server.close());

// Documents render in child processes: slow on a loaded machine, never asserted on time.
describe('document creator: generated documents', { timeout: 60_000 }, () => {
  it('makes a PDF and a .docx from a template with its placeholders filled, a page per page break', async () => {
    const template = await createTemplate(
      ana,
      templateBody([
        { type: 'heading', level: 1, text: 'Contrato con [[Empresa]]' },
        { type: 'paragraph', text: 'Firmado en Madrid el [[DATESTAMP]] por [[Nombre]].[[IF Extra]] Cláusula adicional.[[/IF]]', align: 'justify' },
        { type: 'list', ordered: true, items: ['Primero: [[Nombre]]', 'Segundo'] },
        { type: 'table', header: true, rows: [['Campo', 'Valor'], ['CIF', '[[CIF]]']] },
        { type: 'pageBreak' },
        { type: 'image', dataUrl: PNG_DATA_URL, width: 30, alt: 'Logo' },
        { type: 'signature', label: 'Firma de [[Nombre]]' },
        { type: 'paragraph', text: 'Firma: [[SIGNATURE]]' },
      ]),
    );
    expect(template.placeholders).toEqual(['Empresa', 'Nombre', 'Extra', 'CIF']);
    expect(template.takesSignature).toBe(true);

    const document = await generateAndWait(ana, { templateId: template.id, name: 'Contrato Talleres Núñez', company: 'Talleres Núñez SL', values: { Empresa: 'Talleres Núñez SL', Nombre: 'José Pérez', CIF: 'B12345678', Extra: '' } });
    expect(document).toMatchObject({ status: 'ready', error: null, name: 'Contrato Talleres Núñez', company: 'Talleres Núñez SL', templateId: template.id, templateName: 'Contrato de prueba', submissionId: null });
    expect(document.pdfSize).toBeGreaterThan(500);
    expect(document.docxSize).toBeGreaterThan(500);

    const pdf = await ana.get(path(documentsPaths.documentFile, { id: document.id, format: 'pdf' }));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(pdf.headers['content-disposition']).toContain("attachment; filename=\"Contrato Talleres Nunez.pdf\"; filename*=UTF-8''Contrato%20Talleres%20N%C3%BA%C3%B1ez.pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBe(document.pdfSize);
    expect(pdfPages(pdf.rawPayload)).toBe(2);
    // The logo image; no drawn signature was given.
    expect(pdfImages(pdf.rawPayload)).toBe(1);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Contrato con Talleres Núñez SL');
    expect(text).toContain('B12345678');
    expect(text).toContain('10/03/2026');
    expect(text).toContain('Página 1 de 2');
    expect(text).toContain('Página 2 de 2');
    expect(text).not.toContain('Cláusula adicional');
    expect(text).not.toContain('[[');

    const docx = await ana.get(path(documentsPaths.documentFile, { id: document.id, format: 'docx' }));
    expect(docx.statusCode).toBe(200);
    expect(docx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(docx.headers['content-disposition']).toContain('.docx');
    const entries = unzipSync(new Uint8Array(docx.rawPayload));
    const xml = strFromU8(entries['word/document.xml'] ?? new Uint8Array());
    expect(xml).toContain('Contrato con Talleres Núñez SL');
    expect(xml).toContain('B12345678');
    expect(xml).toContain('Firma de José Pérez');
    expect(xml).not.toContain('[[');
    expect(Object.keys(entries).some((name) => name.startsWith('word/media/'))).toBe(true);
  });

  it('lists the firm’s documents newest first, by name or company and template, paged; deleting removes the files', async () => {
    const template = await createTemplate(ana, templateBody([{ type: 'paragraph', text: 'Hola [[Nombre]]' }]));
    const first = await generateAndWait(ana, { templateId: template.id, name: '', company: 'Ferretería López', values: { Nombre: 'Ana' } });
    const second = await generateAndWait(ana, { templateId: template.id, name: 'Recibo', values: { Nombre: 'Luis' } });
    expect(first.name).toBe('Contrato de prueba');

    const all = (await ana.get(documentsPaths.documents)).json<DocumentsPage>();
    expect(all).toMatchObject({ total: 2, page: 1, pageSize: 50 });
    expect(all.items.map((item) => item.id).sort()).toEqual([first.id, second.id].sort());
    const byCompany = (await ana.get(`${documentsPaths.documents}?q=${encodeURIComponent('ferretería')}`)).json<DocumentsPage>();
    expect(byCompany.items.map((item) => item.id)).toEqual([first.id]);
    expect((await ana.get(`${documentsPaths.documents}?q=recibo`)).json<DocumentsPage>().total).toBe(1);
    expect((await ana.get(`${documentsPaths.documents}?q=${encodeURIComponent('100%')}`)).json<DocumentsPage>().total).toBe(0);
    expect((await ana.get(`${documentsPaths.documents}?templateId=${template.id}&page=2`)).json<DocumentsPage>()).toMatchObject({ total: 2, items: [], page: 2 });
    expect((await ana.get(`${documentsPaths.documents}?page=0`)).statusCode).toBe(400);

    expect(await storedDocumentFiles(server)).toHaveLength(4);
    const removed = await ana.request({ method: 'DELETE', url: path(documentsPaths.document, { id: first.id }) });
    expect(removed.statusCode).toBe(204);
    expect(await storedDocumentFiles(server)).toHaveLength(2);
    expect((await ana.get(path(documentsPaths.document, { id: first.id }))).statusCode).toBe(404);
    expect((await ana.get(path(documentsPaths.documentFile, { id: first.id, format: 'pdf' }))).statusCode).toBe(404);
  });

  it('answers 409 while a document is being made, and never shows another firm its documents', async () => {
    const template = await createTemplate(ana, templateBody([{ type: 'paragraph', text: 'Hola' }]));
    const response = await ana.post(documentsPaths.documents, { templateId: template.id, name: 'Pronto', values: {} });
    const started = response.json<GeneratedDocument>();
    const early = await ana.get(path(documentsPaths.documentFile, { id: started.id, format: 'pdf' }));
    // The render may already be done on a fast machine; while it is not, the answer is the 409.
    if (early.statusCode !== 200) expect(early.json()).toMatchObject({ statusCode: 409, message: DOCUMENT_NOT_READY_MESSAGE });

    const other = await registerUser(server.app, 'eva@asesoria-dos.es', 'Eva Ruiz');
    expect((await other.get(path(documentsPaths.document, { id: started.id }))).statusCode).toBe(404);
    expect((await other.get(path(documentsPaths.documentFile, { id: started.id, format: 'pdf' }))).statusCode).toBe(404);
    expect((await other.request({ method: 'DELETE', url: path(documentsPaths.document, { id: started.id }) })).statusCode).toBe(404);
    expect((await other.get(documentsPaths.documents)).json<DocumentsPage>().total).toBe(0);
    // Nor generate from its template.
    expect((await other.post(documentsPaths.documents, { templateId: template.id, name: 'x', values: {} })).statusCode).toBe(404);
    const ready = await generateAndWait(ana, { templateId: template.id, name: 'Listo', values: {} });
    expect(ready.status).toBe('ready');
  });

  it('a template whose image is broken gives a failed document with a Spanish reason, and no file', async () => {
    // The data URL's shape is right and it starts as a PNG (so it is stored); the rest is not an image.
    const template = await createTemplate(ana, templateBody([{ type: 'image', dataUrl: 'data:image/png;base64,iVBORw0KGgoAAAAAAAAAAAAAAAA', width: 50, alt: '' }]));
    const document = await generateAndWait(ana, { templateId: template.id, name: 'Roto', values: {} });
    expect(document.status).toBe('failed');
    expect(document.error).toMatch(/No se ha podido generar el documento: Una imagen de la plantilla está dañada/);
    expect(await storedDocumentFiles(server)).toEqual([]);
    expect((await ana.get(path(documentsPaths.documentFile, { id: document.id, format: 'docx' }))).statusCode).toBe(409);
  });

  it('refuses bad bodies with a 400 and writes nothing', async () => {
    const template = await createTemplate(ana, templateBody([{ type: 'paragraph', text: 'Hola' }]));
    const before = server.countTables(DOCUMENT_TABLES);
    const bad: unknown[] = [
      {},
      { templateId: template.id, name: 'x' },
      { templateId: template.id, name: 'x'.repeat(121), values: {} },
      { templateId: template.id, name: 'x', values: { Nombre: 5 } },
      { templateId: template.id, name: 'x', values: { ['k'.repeat(81)]: 'v' } },
      { templateId: 7, name: 'x', values: {} },
    ];
    for (const body of bad) {
      const response = await ana.post(documentsPaths.documents, body as Record<string, unknown>);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBe('Revisa los datos enviados');
    }
    const badTemplates: unknown[] = [
      { name: '', description: '', categoryId: null, content: { blocks: [], styles: { font: 'sans', fontSize: 11, accentColor: '#1f4e79' } } },
      templateBody([{ type: 'heading', level: 4, text: 'x' } as never]),
      templateBody([{ type: 'image', dataUrl: 'data:image/gif;base64,AAAA', width: 50, alt: '' }]),
      templateBody([{ type: 'table', header: true, rows: [] }]),
      templateBody([], { content: { blocks: [], styles: { font: 'sans', fontSize: 30, accentColor: 'red' } } }),
    ];
    for (const body of badTemplates) {
      const response = await ana.post(documentsPaths.templates, body as Record<string, unknown>);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(server.countTables(DOCUMENT_TABLES)).toEqual(before);
    expect(await storedDocumentFiles(server)).toEqual([]);
  });
});

// Documents render in child processes: slow on a loaded machine, never asserted on time.
describe('document creator: starters, styles and blocks', { timeout: 60_000 }, () => {
  it('offers the three starters; using one makes the caller’s own template that generates', async () => {
    const starters = (await ana.get(documentsPaths.starters)).json<{ items: Starter[] }>().items;
    expect(starters.map((starter) => starter.name)).toEqual(['Autorización RED', 'Solicitud de datos de alta', 'Consentimiento RGPD']);
    expect(starters[0]?.placeholders).toEqual(expect.arrayContaining(['Razón social', 'CIF', 'CCC', 'Representante', 'NIF Representante', 'Autorizado', 'Fecha']));
    expect(starters[1]?.placeholders).toEqual(expect.arrayContaining(['Nombre', 'Apellidos', 'NIF', 'NAF', 'Fecha de nacimiento', 'Domicilio', 'IBAN', 'Fecha de alta', 'Puesto']));
    expect(starters[2]?.placeholders).toContain('Comunicaciones comerciales');

    for (const starter of starters) {
      const response = await ana.post(path(documentsPaths.useStarter, { key: starter.key }));
      expect(response.statusCode, response.body).toBe(201);
      const template = response.json<Template>();
      expect(template).toMatchObject({ name: starter.name, access: 'owner', ownerName: 'Ana Pérez', takesSignature: true });
      const values = Object.fromEntries(template.placeholders.map((key) => [key, `valor ${key}`]));
      const document = await generateAndWait(ana, { templateId: template.id, name: starter.name, values });
      expect(document.status, document.error ?? '').toBe('ready');
    }
    expect((await ana.post(path(documentsPaths.useStarter, { key: 'no-existe' }))).statusCode).toBe(404);

    const styles = (await ana.get(documentsPaths.styles)).json<{ items: { key: string }[] }>().items;
    expect(styles.map((style) => style.key)).toEqual(['clasico', 'formal', 'compacto']);
    const blocks = (await ana.get(documentsPaths.blocks)).json<{ items: { type: string; label: string }[] }>().items;
    expect(blocks).toContainEqual({ type: 'signature', label: 'Firma' });
    expect(blocks).toHaveLength(7);
  });

  it('the RGPD consent keeps the commercial clause only when it is accepted', async () => {
    const template = (await ana.post(path(documentsPaths.useStarter, { key: 'consentimiento-rgpd' }))).json<Template>();
    const values = { Responsable: 'Asesoría Uno SL', Nombre: 'Marta Gil', NIF: '12345678Z', Localidad: 'Sevilla' };
    const accepted = await generateAndWait(ana, { templateId: template.id, name: 'Con', values: { ...values, 'Comunicaciones comerciales': 'sí' } });
    const refused = await generateAndWait(ana, { templateId: template.id, name: 'Sin', values: { ...values, 'Comunicaciones comerciales': '' } });
    const textOf = async (id: string) => strFromU8(unzipSync(new Uint8Array((await ana.get(path(documentsPaths.documentFile, { id, format: 'docx' }))).rawPayload))['word/document.xml'] ?? new Uint8Array());
    expect(await textOf(accepted.id)).toContain('comunicaciones comerciales de Asesoría Uno SL');
    expect(await textOf(refused.id)).not.toContain('comunicaciones comerciales de');
  });
});
