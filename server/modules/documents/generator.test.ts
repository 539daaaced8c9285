import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_STYLES, type TemplateContent } from '#shared/documents/blocks.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { FileStorage } from '../storage/service.ts';
import { DocumentGenerator, STOPPED_MESSAGE, type GenerateInput } from './generator.ts';
import { DEFAULT_RENDERER_OPTIONS, DocumentRenderer, RenderFailure, type RenderedFiles } from './renderer.ts';
import { pdfImages, pdfPages, pdfText, storedDocumentFiles, TINY_PNG } from './test-support.ts';

const CONTENT: TemplateContent = {
  styles: DEFAULT_DOCUMENT_STYLES,
  blocks: [
    { type: 'heading', level: 2, text: 'Alta de [[Nombre]]' },
    { type: 'signature', label: 'Firma del trabajador' },
    { type: 'paragraph', text: '[[SIGNATURE]]' },
  ],
};

const log = { warn: () => undefined, error: () => undefined };

let server: TestServer;
let db: Kysely<Database>;
let storage: FileStorage;
let groupId: string;
let generators: DocumentGenerator[];

function input(overrides: Partial<GenerateInput> = {}): GenerateInput {
  return { groupId, ownerUserId: null, templateId: null, submissionId: null, name: 'Alta', company: 'Talleres Núñez SL', content: CONTENT, values: { Nombre: 'José' }, ...overrides };
}

function generator(options: Partial<ConstructorParameters<typeof DocumentGenerator>[0]> = {}): DocumentGenerator {
  const made = new DocumentGenerator({ db, storage, now: () => new Date('2026-03-10T10:00:00.000Z'), log, ...options });
  generators.push(made);
  return made;
}

const row = (id: string) => db.selectFrom('doc_documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeEach(async () => {
  server = await startTestServer();
  await registerUser(server.app, 'ana@asesoria-uno.es');
  db = connectDatabase(server.database);
  storage = new FileStorage(join(server.dir, 'storage'));
  groupId = (await db.selectFrom('users').select('group_id').executeTakeFirstOrThrow()).group_id;
  generators = [];
});
afterEach(async () => {
  for (const made of generators) await made.stop();
  await db.destroy();
  await server.close();
});

/** A renderer that answers after `release` is called, counting how many render at once. */
class HeldRenderer extends DocumentRenderer {
  active = 0;
  most = 0;
  private readonly waiting: (() => void)[] = [];

  override render(): Promise<RenderedFiles> {
    this.active += 1;
    this.most = Math.max(this.most, this.active);
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.active -= 1;
        resolve({ pdf: new Uint8Array([37, 80, 68, 70]), docx: new Uint8Array([80, 75]) });
      }),
    );
  }

  releaseOne(): boolean {
    const next = this.waiting.shift();
    next?.();
    return next !== undefined;
  }
}

// Documents render in child processes: slow on a loaded machine, never asserted on time.
describe('DocumentGenerator', { timeout: 60_000 }, () => {
  it("answers at once with a 'generating' row; the PDF gets the drawn signature and the [[SIGNATURE]] text", async () => {
    const documents = generator();
    const { documentId } = await documents.generate(input({ ownerUserId: null, name: 'Alta\u0000', signaturePng: new Uint8Array(TINY_PNG), values: { Nombre: 'José', SIGNATURE: 'Firmado por José Pérez el 10/03/2026' } }));
    expect((await row(documentId)).status).toBe('generating');
    await documents.whenIdle();
    const ready = await row(documentId);
    // A NUL (which PostgreSQL refuses) never reaches the row.
    expect(ready).toMatchObject({ status: 'ready', error: null, name: 'Alta', company: 'Talleres Núñez SL', owner_user_id: null });
    expect(ready.pdf_key).toBe(`${groupId}/documents/${documentId}.pdf`);
    const pdf = await storage.read(ready.pdf_key ?? '');
    expect(pdf.byteLength).toBe(Number(ready.pdf_size));
    expect(pdfPages(pdf)).toBe(1);
    expect(pdfImages(pdf)).toBe(1);
    const text = pdfText(pdf);
    expect(text).toContain('Alta de José');
    expect(text).toContain('Firmado por José Pérez el 10/03/2026');
    expect(text).toContain('Firma del trabajador');

    // Without a signature: no image, and [[SIGNATURE]] is left blank rather than shown.
    const unsigned = await documents.generate(input());
    await documents.whenIdle();
    const unsignedPdf = await storage.read((await row(unsigned.documentId)).pdf_key ?? '');
    expect(pdfImages(unsignedPdf)).toBe(0);
    expect(pdfText(unsignedPdf)).not.toContain('[[');
  });

  it('renders at most `concurrency` documents at once; the rest wait their turn', async () => {
    const renderer = new HeldRenderer();
    const documents = generator({ renderer, concurrency: 2 });
    const ids = await Promise.all(Array.from({ length: 6 }, (_, index) => documents.generate(input({ name: `Doc ${index}` }))));
    const idle = documents.whenIdle();
    let released = 0;
    while (released < ids.length) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (renderer.releaseOne()) released += 1;
    }
    await idle;
    expect(renderer.most).toBe(2);
    for (const { documentId } of ids) expect((await row(documentId)).status).toBe('ready');
  });

  it("a render that fails or runs past its time marks the document 'failed' with a Spanish reason, and keeps no file", async () => {
    const documents = generator({ renderer: new DocumentRenderer({ ...DEFAULT_RENDERER_OPTIONS, timeLimitMs: 5 }) });
    const slow = await documents.generate(input());
    await documents.whenIdle();
    expect(await row(slow.documentId)).toMatchObject({ status: 'failed', error: 'Generar el documento lleva más de 1 s, el máximo. Revisa que la plantilla no sea demasiado grande.', pdf_key: null });

    const broken = generator();
    const bad = await broken.generate(input({ signaturePng: new Uint8Array([1, 2, 3]) }));
    await broken.whenIdle();
    expect(await row(bad.documentId)).toMatchObject({ status: 'failed', error: 'No se ha podido generar el documento: La firma está dañada o no es una imagen válida' });
    expect(await storedDocumentFiles(server)).toEqual([]);
  });

  it('a document deleted while it is made leaves no file; stop() fails those still waiting', async () => {
    const renderer = new HeldRenderer();
    const documents = generator({ renderer, concurrency: 1 });
    const first = await documents.generate(input());
    const second = await documents.generate(input());
    const third = await documents.generate(input());
    await db.deleteFrom('doc_documents').where('id', '=', first.documentId).execute();
    while (!renderer.releaseOne()) await new Promise((resolve) => setTimeout(resolve, 5));
    // The second renders and the third waits its turn when the server closes.
    while (renderer.active === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const stopping = documents.stop();
    renderer.releaseOne();
    await stopping;
    expect(renderer.active).toBe(0);
    // The first's files went with it; the second's render had finished, so it is kept.
    expect(await storedDocumentFiles(server)).toEqual(expect.arrayContaining([expect.stringContaining(second.documentId)]));
    expect((await storedDocumentFiles(server)).some((file) => file.includes(first.documentId))).toBe(false);
    expect(await row(third.documentId)).toMatchObject({ status: 'failed', error: STOPPED_MESSAGE });
    // After stop, nothing starts: the row says why at once.
    const late = await documents.generate(input());
    expect(await row(late.documentId)).toMatchObject({ status: 'failed', error: STOPPED_MESSAGE });
  });

  it('failInterrupted marks what a previous process left generating as failed', async () => {
    const renderer = new HeldRenderer();
    const earlier = generator({ renderer });
    const { documentId } = await earlier.generate(input());
    await generator().failInterrupted();
    expect(await row(documentId)).toMatchObject({ status: 'failed', error: STOPPED_MESSAGE });
    renderer.releaseOne();
    await earlier.whenIdle();
    // The render that ended afterwards does not bring it back, and keeps no file.
    expect((await row(documentId)).status).toBe('failed');
    expect(await storedDocumentFiles(server)).toEqual([]);
  });

  it('keeps a rendering process for the next document and ends them all on stop', async () => {
    const renderer = new DocumentRenderer();
    const documents = generator({ renderer });
    await documents.generate(input());
    await documents.whenIdle();
    await documents.generate(input());
    await documents.whenIdle();
    expect(renderer.processes).toBe(1);
    await documents.stop();
    expect(renderer.processes).toBe(0);
    await expect(renderer.render({ title: 'x', content: CONTENT, values: {}, now: new Date().toISOString(), signaturePng: null })).rejects.toBeInstanceOf(RenderFailure);
  });
});
