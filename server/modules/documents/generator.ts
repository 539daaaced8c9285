import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TemplateContent } from '#shared/documents/blocks.ts';
import type { Database } from '../../db/schema.ts';
import { ConcurrencyLimit } from '../../files/inspector.ts';
import type { FileStorage } from '../storage/service.ts';
import { DEFAULT_RENDERER_OPTIONS, DocumentRenderer, RenderFailure, type DocumentRendererOptions } from './renderer.ts';

export interface GenerateInput {
  groupId: string;
  /** Who asked for it; null for a client's submission. */
  ownerUserId: string | null;
  templateId: string | null;
  submissionId: string | null;
  /** The files' name without extension. */
  name: string;
  company: string | null;
  /** The template as it is now (or as the form was published): not yet filled. */
  content: TemplateContent;
  values: Record<string, string>;
  /** The signer's drawn signature, for the template's signature blocks. */
  signaturePng?: Uint8Array;
}

export interface DocumentGeneratorDeps {
  db: Kysely<Database>;
  storage: FileStorage;
  now: () => Date;
  log: { warn: (object: object, message: string) => void; error: (object: object, message: string) => void };
  /** Documents rendered at once by this process (2); the rest wait their turn. */
  concurrency?: number;
  renderer?: DocumentRenderer;
  rendererOptions?: Partial<DocumentRendererOptions>;
}

export const STOPPED_MESSAGE = 'Se interrumpió al cerrarse el servidor; vuelve a generarlo';
const STORAGE_MESSAGE = 'No se han podido guardar los archivos del documento; vuelve a generarlo';

/** Where a document's files are kept: under its firm's folder, named by the document's id (never its name). */
export const documentFileKey = (groupId: string, documentId: string, format: 'pdf' | 'docx') => `${groupId}/documents/${documentId}.${format}`;

/**
 * Makes the PDF and the .docx of a document (issue 40 §1), for the document creator and for every online
 * form's submission: generate() writes the document's row ('generating') and answers at once; the render
 * runs in the background, in a child process (renderer.ts), at most `concurrency` at once so a burst of
 * submissions never starts fifty processes. The files go to storage under the firm's folder and the row
 * becomes 'ready' with their sizes, or 'failed' with a Spanish reason. A document deleted meanwhile leaves
 * no file behind.
 */
export class DocumentGenerator {
  private readonly renderer: DocumentRenderer;
  private readonly limit: ConcurrencyLimit;
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: DocumentGeneratorDeps) {
    this.renderer = deps.renderer ?? new DocumentRenderer({ ...DEFAULT_RENDERER_OPTIONS, ...deps.rendererOptions });
    this.limit = new ConcurrencyLimit(deps.concurrency ?? 2);
  }

  /** Where the files go (the document creator's downloads read them there). */
  get storage(): FileStorage {
    return this.deps.storage;
  }

  async generate(input: GenerateInput): Promise<{ documentId: string }> {
    const { db, now } = this.deps;
    const documentId = randomUUID();
    const createdAt = now();
    await db
      .insertInto('doc_documents')
      .values({
        id: documentId,
        group_id: input.groupId,
        owner_user_id: input.ownerUserId,
        template_id: input.templateId,
        submission_id: input.submissionId,
        // PostgreSQL refuses a NUL in text; no name needs one.
        name: input.name.replaceAll('\u0000', ''),
        company: input.company?.replaceAll('\u0000', '') ?? null,
        status: this.stopped ? 'failed' : 'generating',
        error: this.stopped ? STOPPED_MESSAGE : null,
        pdf_key: null,
        pdf_size: null,
        docx_key: null,
        docx_size: null,
        created_at: createdAt.toISOString(),
      })
      .execute();
    if (this.stopped) return { documentId };
    const task = this.limit
      .run(() => this.make(documentId, input, createdAt))
      .catch((error: unknown) => this.deps.log.error({ err: error, documentId }, 'No se ha podido terminar la generación de un documento'))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
    return { documentId };
  }

  /**
   * At start, with one server process (SQLite): documents a previous process left 'generating' were cut
   * off by its end (nobody will finish them), so they are marked failed, to be generated again.
   */
  async failInterrupted(): Promise<void> {
    await this.deps.db.updateTable('doc_documents').set({ status: 'failed', error: STOPPED_MESSAGE }).where('status', '=', 'generating').execute();
  }

  /**
   * Someone is about to generate (the document creator or an online form is open): a rendering process
   * starts and warms up now, so their document does not wait for it. Never throws.
   */
  warmUp(): void {
    if (!this.stopped) void this.renderer.warmUp().catch(() => undefined);
  }

  /** Resolves once every document asked for so far is ready or failed (tests, and stop()). */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** The server is closing: renders under way end, those waiting fail with STOPPED_MESSAGE. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.renderer.stopAll();
    await this.whenIdle();
  }

  private async make(documentId: string, input: GenerateInput, createdAt: Date): Promise<void> {
    if (this.stopped) return this.fail(documentId, STOPPED_MESSAGE);
    let files;
    try {
      files = await this.renderer.render({
        title: input.name,
        content: input.content,
        values: input.values,
        now: createdAt.toISOString(),
        signaturePng: input.signaturePng ?? null,
      });
    } catch (error) {
      if (this.stopped) return this.fail(documentId, STOPPED_MESSAGE);
      if (!(error instanceof RenderFailure)) this.deps.log.warn({ err: error, documentId }, 'Generación de documento fallida');
      return this.fail(documentId, error instanceof RenderFailure ? error.message : 'No se ha podido generar el documento');
    }
    const { storage, db } = this.deps;
    const pdfKey = documentFileKey(input.groupId, documentId, 'pdf');
    const docxKey = documentFileKey(input.groupId, documentId, 'docx');
    try {
      await storage.write(pdfKey, files.pdf);
      await storage.write(docxKey, files.docx);
    } catch (error) {
      this.deps.log.error({ err: error, documentId }, 'No se han podido guardar los archivos de un documento');
      await storage.remove([pdfKey, docxKey]);
      return this.fail(documentId, STORAGE_MESSAGE);
    }
    const result = await db
      .updateTable('doc_documents')
      .set({ status: 'ready', error: null, pdf_key: pdfKey, pdf_size: files.pdf.byteLength, docx_key: docxKey, docx_size: files.docx.byteLength })
      .where('id', '=', documentId)
      .where('status', '=', 'generating')
      .executeTakeFirst();
    // Deleted while it was being made: its files go too.
    if (Number(result.numUpdatedRows) === 0) await storage.remove([pdfKey, docxKey]);
  }

  private async fail(documentId: string, reason: string): Promise<void> {
    await this.deps.db.updateTable('doc_documents').set({ status: 'failed', error: reason }).where('id', '=', documentId).where('status', '=', 'generating').execute();
  }
}
