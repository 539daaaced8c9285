import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATEGORY_TAKEN_MESSAGE, documentsPaths, TEMPLATE_NOT_FOUND_MESSAGE, type Category, type Template, type TemplateSummary } from '#shared/api/documents.ts';
import { colleaguesPaths, type Colleagues } from '#shared/api/colleagues.ts';
import { sharePaths } from '#shared/api/share.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { IMAGE_CONTENT_MESSAGE, OWNER_ONLY_DELETE_MESSAGE, VIEW_ONLY_MESSAGE } from './messages.ts';
import { createTemplate, DOCUMENT_TABLES, generateAndWait, path, templateBody } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
let luis: CookieJar;
let marta: CookieJar;
let luisId: string;
let martaId: string;

async function userId(jar: CookieJar): Promise<string> {
  const response = await jar.get(colleaguesPaths.colleagues);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Colleagues>().members.find((member) => member.isMe)?.id ?? '';
}

const list = async (jar: CookieJar, query = '') => (await jar.get(`${documentsPaths.templates}${query}`)).json<{ items: TemplateSummary[] }>().items;

beforeEach(async () => {
  server = await startTestServer();
  ana = await registerUser(server.app, 'ana@asesoria-uno.es');
  luis = await joinFirm(server, ana, 'luis@asesoria-uno.es', 'Luis Gil');
  marta = await joinFirm(server, ana, 'marta@asesoria-uno.es', 'Marta Sanz');
  luisId = await userId(luis);
  martaId = await userId(marta);
});
afterEach(async () => server.close());

// Documents render in child processes: slow on a loaded machine, never asserted on time.
describe('document creator: templates and their access', { timeout: 60_000 }, () => {
  it('a colleague sees only what is shared with them; view reads, edit changes, only the owner deletes', async () => {
    const shared = await createTemplate(ana, templateBody([{ type: 'paragraph', text: 'Hola [[Nombre]]' }], { name: 'Mandato' }));
    const privateOne = await createTemplate(ana, templateBody([{ type: 'paragraph', text: 'Privado' }], { name: 'Privada' }));
    expect(shared).toMatchObject({ access: 'owner', ownerName: 'Ana Pérez', placeholders: ['Nombre'], takesSignature: false });

    // Nothing shared yet: Luis sees none of Ana's templates, and her ids are 404 to him.
    expect(await list(luis)).toEqual([]);
    expect((await luis.get(path(documentsPaths.template, { id: shared.id }))).json()).toMatchObject({ statusCode: 404, message: TEMPLATE_NOT_FOUND_MESSAGE });

    const grant = await ana.put(path(sharePaths.object, { kind: 'template', id: shared.id }), { grants: [{ userId: luisId, access: 'view' }, { userId: martaId, access: 'edit' }] });
    expect(grant.statusCode, grant.body).toBe(200);

    const luisList = await list(luis);
    expect(luisList.map((template) => [template.name, template.access, template.ownerName])).toEqual([['Mandato', 'view', 'Ana Pérez']]);
    expect(await list(luis, '?scope=own')).toEqual([]);
    expect((await list(luis, '?scope=shared')).map((template) => template.id)).toEqual([shared.id]);
    expect((await list(ana, '?scope=shared'))).toEqual([]);
    expect((await list(ana)).map((template) => template.name).sort()).toEqual(['Mandato', 'Privada']);
    expect((await luis.get(path(documentsPaths.template, { id: privateOne.id }))).statusCode).toBe(404);

    // View: reads and generates, cannot change nor delete.
    const viewed = (await luis.get(path(documentsPaths.template, { id: shared.id }))).json<Template>();
    expect(viewed.content.blocks).toEqual([{ type: 'paragraph', text: 'Hola [[Nombre]]' }]);
    const refused = await luis.put(path(documentsPaths.template, { id: shared.id }), templateBody([], { name: 'Cambiada' }));
    expect(refused.json()).toMatchObject({ statusCode: 403, message: VIEW_ONLY_MESSAGE });
    const document = await generateAndWait(luis, { templateId: shared.id, name: 'De Luis', values: { Nombre: 'Pepe' } });
    expect(document.status).toBe('ready');
    // Generated documents are the firm's: Ana and Marta see Luis's.
    expect((await ana.get(path(documentsPaths.document, { id: document.id }))).statusCode).toBe(200);
    expect((await marta.get(documentsPaths.documents)).json<{ total: number }>().total).toBe(1);

    // Edit: Marta changes it; the owner stays Ana.
    const edited = await marta.put(path(documentsPaths.template, { id: shared.id }), templateBody([{ type: 'paragraph', text: 'Adiós [[Apellido]]' }], { name: 'Mandato v2' }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Template>()).toMatchObject({ name: 'Mandato v2', access: 'edit', ownerName: 'Ana Pérez', placeholders: ['Apellido'] });
    expect((await ana.get(path(documentsPaths.template, { id: shared.id }))).json<Template>().name).toBe('Mandato v2');

    for (const jar of [luis, marta]) {
      const response = await jar.request({ method: 'DELETE', url: path(documentsPaths.template, { id: shared.id }) });
      expect(response.json()).toMatchObject({ statusCode: 403, message: OWNER_ONLY_DELETE_MESSAGE });
    }
    expect((await ana.request({ method: 'DELETE', url: path(documentsPaths.template, { id: shared.id }) })).statusCode).toBe(204);
    expect(server.countRows('shares')).toBe(0);
    expect(await list(luis)).toEqual([]);
    // The document made from it stays, without its template.
    expect((await ana.get(path(documentsPaths.document, { id: document.id }))).json()).toMatchObject({ templateId: null, templateName: null, status: 'ready' });
  });

  it("another firm's templates, categories and ids are 404 and never listed", async () => {
    const category = (await ana.post(documentsPaths.categories, { name: 'Laboral' })).json<Category>();
    const template = await createTemplate(ana, templateBody([{ type: 'paragraph', text: 'x' }], { categoryId: category.id }));
    const eva = await registerUser(server.app, 'eva@asesoria-dos.es', 'Eva Ruiz');
    const before = server.countTables(DOCUMENT_TABLES);

    expect(await list(eva)).toEqual([]);
    expect((await eva.get(documentsPaths.categories)).json<{ items: Category[] }>().items).toEqual([]);
    expect((await eva.get(path(documentsPaths.template, { id: template.id }))).statusCode).toBe(404);
    expect((await eva.put(path(documentsPaths.template, { id: template.id }), templateBody([]))).statusCode).toBe(404);
    expect((await eva.request({ method: 'DELETE', url: path(documentsPaths.template, { id: template.id }) })).statusCode).toBe(404);
    expect((await eva.patch(path(documentsPaths.category, { id: category.id }), { name: 'Mío' })).statusCode).toBe(404);
    expect((await eva.request({ method: 'DELETE', url: path(documentsPaths.category, { id: category.id }) })).statusCode).toBe(404);
    // Nor can she file her own template under Ana's category.
    expect((await eva.post(documentsPaths.templates, templateBody([], { categoryId: category.id }))).statusCode).toBe(404);
    // Ids that cannot be ours are 404 too.
    expect((await eva.get(path(documentsPaths.template, { id: 'no-es-un-id' }))).statusCode).toBe(404);
    expect(server.countTables(DOCUMENT_TABLES)).toEqual(before);
  });

  it('takes template bodies up to TEMPLATE_BODY_LIMIT (images as data URLs), and refuses bigger ones writing nothing', async () => {
    // The first bytes are a PNG's (signature and IHDR): images are judged by what they start with.
    const image = (fill: string) => ({ type: 'image' as const, dataUrl: `data:image/png;base64,iVBORw0KGgoAAAANSUhEUg${fill.repeat(190_000)}`, width: 50, alt: '' });
    const big = await ana.post(documentsPaths.templates, templateBody([image('A'), image('B'), image('D')], { name: 'Con logos' }));
    expect(big.statusCode, big.body.slice(0, 200)).toBe(201);
    expect(big.json<Template>().content.blocks).toHaveLength(3);
    const before = server.countTables(DOCUMENT_TABLES);
    const tooBig = await ana.post(documentsPaths.templates, templateBody(Array.from({ length: 4 }, () => image('C')), { name: 'Demasiado' }));
    expect(tooBig.statusCode).toBe(413);
    expect(server.countTables(DOCUMENT_TABLES)).toEqual(before);
  });

  it('judges image blocks by their bytes: what a data URL calls PNG or JPEG must start as one, or nothing is written', async () => {
    const before = server.countTables(DOCUMENT_TABLES);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64');
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    for (const dataUrl of [`data:image/png;base64,${svg}`, `data:image/jpeg;base64,${html}`, `data:image/jpeg;base64,${png}`]) {
      const refused = await ana.post(documentsPaths.templates, templateBody([{ type: 'image', dataUrl, width: 50, alt: 'Logo' }], { name: 'Logo falso' }));
      expect(refused.statusCode, dataUrl.slice(0, 40)).toBe(400);
      expect(refused.json()).toMatchObject({ message: IMAGE_CONTENT_MESSAGE });
    }
    expect(server.countTables(DOCUMENT_TABLES)).toEqual(before);
    const logo = await ana.post(documentsPaths.templates, templateBody([{ type: 'image', dataUrl: `data:image/png;base64,${png}`, width: 50, alt: 'Logo' }], { name: 'Logo' }));
    expect(logo.statusCode, logo.body).toBe(201);
  });

  it('categories: unique names in the firm, counts, filter, rename, delete keeps the templates', async () => {
    const laboral = await ana.post(documentsPaths.categories, { name: ' Laboral ' });
    expect(laboral.statusCode).toBe(201);
    const category = laboral.json<Category>();
    expect(category).toMatchObject({ name: 'Laboral', templates: 0 });
    expect((await ana.post(documentsPaths.categories, { name: 'Laboral' })).json()).toMatchObject({ statusCode: 409, message: CATEGORY_TAKEN_MESSAGE });
    expect((await ana.post(documentsPaths.categories, { name: '  ' })).statusCode).toBe(400);
    const fiscal = (await ana.post(documentsPaths.categories, { name: 'Fiscal' })).json<Category>();
    expect((await ana.patch(path(documentsPaths.category, { id: fiscal.id }), { name: 'Laboral' })).statusCode).toBe(409);

    const inCategory = await createTemplate(ana, templateBody([], { name: 'Contrato indefinido', categoryId: category.id }));
    await createTemplate(ana, templateBody([], { name: 'Otra cosa' }));
    expect((await ana.get(documentsPaths.categories)).json<{ items: Category[] }>().items).toEqual([
      { id: fiscal.id, name: 'Fiscal', templates: 0 },
      { id: category.id, name: 'Laboral', templates: 1 },
    ]);
    expect((await list(ana, `?categoryId=${category.id}`)).map((template) => template.id)).toEqual([inCategory.id]);
    expect((await list(ana, '?q=INDEFINIDO')).map((template) => template.id)).toEqual([inCategory.id]);
    expect(await list(ana, '?q=%25')).toEqual([]);
    expect((await ana.get(`${documentsPaths.templates}?scope=todas`)).statusCode).toBe(400);

    const renamed = await ana.patch(path(documentsPaths.category, { id: category.id }), { name: 'Contratos' });
    expect(renamed.json<Category>()).toMatchObject({ name: 'Contratos', templates: 1 });
    expect((await ana.request({ method: 'DELETE', url: path(documentsPaths.category, { id: category.id }) })).statusCode).toBe(204);
    expect((await ana.get(path(documentsPaths.template, { id: inCategory.id }))).json<Template>().categoryId).toBeNull();
  });
});
