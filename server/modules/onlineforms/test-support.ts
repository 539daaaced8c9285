import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { expect } from 'vitest';
import { documentsPaths } from '#shared/api/documents.ts';
import { onlineFormsPaths, type FormBody, type FormSubmission, type OnlineForm } from '#shared/api/onlineforms.ts';
import type { TemplateContent } from '#shared/documents/blocks.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { CookieJar, TestServer } from '../../test/harness.ts';

/** Test support for the online forms suites: a template, a form from it, real PNG signatures, polling. */

export const TEMPLATE_CONTENT: TemplateContent = {
  blocks: [
    { type: 'heading', level: 1, text: 'Autorización de [[Nombre]]' },
    { type: 'paragraph', text: 'Yo, [[Nombre]], con NIF [[NIF]], en nombre de [[Razón social]], autorizo desde el [[Fecha de alta]].' },
    { type: 'paragraph', text: '[[IF Acepta]]Acepto las condiciones.[[/IF]] [[Comentarios]]' },
    { type: 'signature', label: 'Firma del cliente' },
  ],
  styles: { font: 'sans', fontSize: 11, accentColor: '#1f4e79' },
};

export const FORM_FIELDS: FormBody['fields'] = [
  { key: 'Nombre', label: 'Nombre y apellidos', type: 'text', required: true },
  { key: 'NIF', label: 'NIF', type: 'nif', required: true },
  { key: 'Razón social', label: 'Empresa', type: 'text', required: false },
  { key: 'Fecha de alta', label: 'Fecha de alta', type: 'date', required: true },
  { key: 'Acepta', label: 'Acepto', type: 'checkbox', required: true },
  { key: 'Comentarios', label: 'Comentarios', type: 'textarea', required: false },
];

export const GOOD_VALUES = { Nombre: 'Lucía Martín', NIF: '12345678Z', 'Razón social': 'Talleres Norte SL', 'Fecha de alta': '2026-12-01', Acepta: true, Comentarios: '' };

export async function createTemplate(jar: CookieJar, content: TemplateContent = TEMPLATE_CONTENT, name = 'Autorización'): Promise<string> {
  const response = await jar.post(documentsPaths.templates, { name, description: '', categoryId: null, content });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

export function formBody(templateId: string, overrides: Partial<FormBody> = {}): FormBody {
  return { templateId, title: 'Alta de cliente', description: 'Rellena tus datos', fields: FORM_FIELDS, requireSignature: true, ...overrides };
}

/** A template and a form from it, published: the form and its public id. */
export async function publishedForm(jar: CookieJar, overrides: Partial<FormBody> = {}): Promise<{ form: OnlineForm; publicId: string }> {
  const templateId = await createTemplate(jar);
  const created = await jar.post(onlineFormsPaths.forms, formBody(templateId, overrides));
  expect(created.statusCode, created.body).toBe(201);
  const form = created.json() as OnlineForm;
  const published = await jar.post(formPath(onlineFormsPaths.publish, form.id));
  expect(published.statusCode, published.body).toBe(200);
  return { form: published.json() as OnlineForm, publicId: form.publicPath.split('/').at(-1) ?? '' };
}

export const formPath = (path: string, id: string) => path.replace(':id', id);
export const publicPath = (path: string, publicId: string) => path.replace(':publicId', publicId);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real PNG (8-bit greyscale, a diagonal line) of the given size. */
export function makePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const rows = Buffer.alloc((width + 1) * height, 255);
  for (let y = 0; y < height; y += 1) {
    rows[y * (width + 1)] = 0;
    rows[y * (width + 1) + 1 + Math.min(width - 1, Math.floor((y * width) / height))] = 0;
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

export const pngDataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
export const SIGNATURE = pngDataUrl(makePng(300, 100));

/** Every file under the server's storage folder (relative paths). */
export async function storedFiles(server: TestServer): Promise<string[]> {
  const root = join(server.dir, 'storage');
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
  } catch {
    return [];
  }
}

/** Reads a submission until its document is no longer generating (the generator works in the background). */
export async function settledSubmission(jar: CookieJar, id: string): Promise<FormSubmission> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const response = await jar.get(formPath(onlineFormsPaths.submission, id));
    expect(response.statusCode, response.body).toBe(200);
    const submission = response.json() as FormSubmission;
    if (submission.documentStatus !== 'generating' && submission.documentId !== null) return submission;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('el documento no terminó de generarse');
}

/** Waits for a logged mail the server sends off the request path. */
export async function eventually<T>(read: () => T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no llegó a ocurrir');
}

/** Runs `work` with its own connection to the test server's database (to arrange rows). */
export async function withDb<T>(server: TestServer, work: (db: ReturnType<typeof connectDatabase>) => Promise<T>): Promise<T> {
  const db = connectDatabase(server.database);
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}
