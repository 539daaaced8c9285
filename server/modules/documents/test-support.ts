import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { documentsPaths, type GeneratedDocument, type Template, type TemplateBody } from '#shared/api/documents.ts';
import { DEFAULT_DOCUMENT_STYLES, type Block } from '#shared/documents/blocks.ts';
import type { Database } from '../../db/schema.ts';
import type { CookieJar, TestServer } from '../../test/harness.ts';

/** The document creator's test fixtures. */

export const DOCUMENT_TABLES: (keyof Database)[] = ['doc_categories', 'doc_templates', 'doc_documents', 'shares'];

/** A 1×1 PNG (a drawn signature stands in). */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export const path = (template: string, params: Record<string, string>) => Object.entries(params).reduce((url, [key, value]) => url.replace(`:${key}`, value), template);

export function templateBody(blocks: Block[], overrides: Partial<TemplateBody> = {}): TemplateBody {
  return { name: 'Contrato de prueba', description: '', categoryId: null, content: { blocks, styles: DEFAULT_DOCUMENT_STYLES }, ...overrides };
}

export async function createTemplate(jar: CookieJar, body: TemplateBody): Promise<Template> {
  const response = await jar.post(documentsPaths.templates, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Template>();
}

/** Asks for a document and waits until it is ready or failed (the render runs in a child process). */
export async function generateAndWait(jar: CookieJar, body: { templateId: string; name: string; company?: string; values: Record<string, string> }): Promise<GeneratedDocument> {
  const response = await jar.post(documentsPaths.documents, body);
  expect(response.statusCode, response.body).toBe(201);
  const started = response.json<GeneratedDocument>();
  expect(started.status).toBe('generating');
  return waitForDocument(jar, started.id);
}

export async function waitForDocument(jar: CookieJar, id: string): Promise<GeneratedDocument> {
  // Bounded by the test's own timeout; the render's time is not asserted.
  for (;;) {
    const response = await jar.get(path(documentsPaths.document, { id }));
    expect(response.statusCode, response.body).toBe(200);
    const document = response.json<GeneratedDocument>();
    if (document.status !== 'generating') return document;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The pages of a pdfkit PDF (its page objects are plain, never in object streams). */
export const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;
/** The images drawn in a PDF (an image with transparency is two objects: the picture and its soft mask). */
export function pdfImages(pdf: Buffer): number {
  const raw = pdf.toString('latin1');
  return (raw.match(/\/Subtype \/Image\b/g) ?? []).length - (raw.match(/\/SMask \d+ 0 R/g) ?? []).length;
}

/** Every file under the server's storage folder for documents. */
export async function storedDocumentFiles(server: TestServer): Promise<string[]> {
  const root = join(server.dir, 'storage');
  const files = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  return files.filter((file) => file.includes('documents') && /\.(pdf|docx)$/.test(file));
}

/** The text a pdfkit PDF draws, one line per text object (its streams inflated, its hex strings read as Latin-1). */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const array of content.matchAll(/\[(.*?)\] TJ/g)) {
      lines.push([...(array[1] ?? '').matchAll(/<([0-9a-f]*)>/g)].map((hex) => Buffer.from(hex[1] ?? '', 'hex').toString('latin1')).join(''));
    }
  }
  return lines.join('\n');
}
