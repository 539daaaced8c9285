import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { altasPaths } from '#shared/api/altas.ts';
import { DEVICE_FINISH_OUTPUTS_MAX_BYTES } from '#shared/api/devices.ts';
import { fiePaths } from '#shared/api/fie.ts';
import { flowsPaths, pathFor } from '#shared/api/flows.ts';
import { notificationsPaths } from '#shared/api/notifications.ts';
import { connectDatabase } from '../../db/connect.ts';
import { buildZip, zipBombXlsx } from '../../files/testing.ts';
import { startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { workbook } from '../runs/test-support.ts';
import { PNG, companySignIn, firmWithCompany, publicFilesPath, sendCredentials } from '../altas/test-support.ts';
import { envio, firmWithPc, page, upsert, type TestFirm } from '../notifications/test-support.ts';

/**
 * Issue 39 point 7: a refused upload leaves nothing behind, on disk either. A batch of refused uploads
 * (wrong content, damaged, a zip bomb, over a cap, a body cut short, a client that hangs up mid-body) is
 * sent to every multipart route; afterwards the storage folder holds exactly the files some table names
 * (stored_files, altas_files, altas_forms' logos, dehu_documents), and every answer is a 4xx.
 */

let server: TestServer;
let ana: TestFirm;
let company: CookieJar;
let notificationId: string;
const SLUG = 'altas-basura';

const PDF_START = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

interface Target {
  name: string;
  method: 'POST' | 'PUT';
  url: () => string;
  field: string;
  /** Text fields sent before the file (the logo's form). */
  fields?: Record<string, string>;
  /** Sends the caller's credentials. */
  headers: () => Record<string, string>;
  /** The file name each kind of garbage is sent as, and the route's size cap (a file one byte over it is refused). */
  fileName: (kind: 'sheet' | 'document') => string;
  capBytes: number | null;
  /** The first bytes of a file of a type the route takes (as named by fileName('document')). */
  start: Buffer;
  /** False for a route that holds its files in memory until it stores them (nothing on disk mid-body). */
  streamsToDisk?: boolean;
}

const cookieOf = (jar: CookieJar) => ({ cookie: [...jar.cookies].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ') });

const targets = (): Target[] => [
  { name: 'launcher uploads', method: 'POST', url: () => flowsPaths.uploads, field: 'file', headers: () => cookieOf(ana.jar), fileName: (kind) => (kind === 'sheet' ? 'libro.xlsx' : 'documento.pdf'), capBytes: null, start: PDF_START },
  { name: 'FIE upload', method: 'POST', url: () => fiePaths.upload, field: 'files', headers: () => cookieOf(ana.jar), fileName: (kind) => (kind === 'sheet' ? 'fie.xlsx' : 'FIE'), capBytes: null, start: PDF_START },
  {
    name: 'altas form logo', method: 'PUT', url: () => altasPaths.formSettings, field: 'logo', fields: { title: 'Altas', url: 'altas-de-ana' }, headers: () => cookieOf(ana.jar),
    fileName: (kind) => (kind === 'sheet' ? 'logo.xlsx' : 'logo.png'), capBytes: 1_000_000, start: PNG,
  },
  { name: 'altas public files', method: 'POST', url: () => publicFilesPath(SLUG), field: 'file', headers: () => cookieOf(company), fileName: (kind) => (kind === 'sheet' ? 'nóminas.xlsx' : 'dni.pdf'), capBytes: 10_000_000, start: PDF_START },
  {
    name: 'DEHÚ documents', method: 'POST', url: () => `${pathFor(notificationsPaths.robotDocuments, { id: notificationId })}?kind=documento&name=Notificaci%C3%B3n.pdf`, field: 'file',
    headers: () => ({ authorization: `Device ${ana.device.token}` }), fileName: (kind) => (kind === 'sheet' ? 'anexo.xlsx' : 'notificacion.pdf'), capBytes: 20_000_000, start: PDF_START,
  },
  {
    // A desktop run's output files (a run no machine holds: refused, after its files were read).
    name: 'device run outputs', method: 'POST', url: () => `/api/device/runs/${randomUUID()}/finish`, field: 'outputs',
    fields: { outcome: JSON.stringify({ kind: 'result', result: 'Success', usageUnits: 1, outputFolder: 'C:\\AutoAsesor\\run', outputFileNames: ['salida.pdf'], outputs: [{ name: 'salida.pdf', base64: '' }] }) },
    headers: () => ({ authorization: `Device ${ana.device.token}` }), fileName: (kind) => (kind === 'sheet' ? 'salida.xlsx' : 'salida.pdf'), capBytes: DEVICE_FINISH_OUTPUTS_MAX_BYTES, start: PDF_START, streamsToDisk: false,
  },
];

function body(target: Target, fileName: string, data: Buffer, options: { close?: boolean } = {}): { payload: Buffer; boundary: string } {
  const boundary = `----basura${randomUUID()}`;
  const fields = Object.entries(target.fields ?? {}).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${target.field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = options.close === false ? Buffer.alloc(0) : Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([...fields, head, data, tail]), boundary };
}

function send(target: Target, fileName: string, data: Buffer, options: { close?: boolean } = {}) {
  const { payload, boundary } = body(target, fileName, data, options);
  return server.app.inject({ method: target.method, url: target.url(), payload, headers: { ...target.headers(), 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/')).sort();
}

const storageDir = () => join(server.dir, 'storage');

/** Every storage key a table names. */
async function indexedKeys(): Promise<string[]> {
  const db = connectDatabase(server.database);
  try {
    const keys = [
      ...(await db.selectFrom('stored_files').select('storage_key as key').execute()),
      ...(await db.selectFrom('altas_files').select('storage_key as key').execute()),
      ...(await db.selectFrom('dehu_documents').select('storage_key as key').execute()),
      ...(await db.selectFrom('altas_forms').select('logo_key as key').where('logo_key', 'is not', null).execute()),
    ];
    return keys.map((row) => row.key ?? '').sort();
  } finally {
    await db.destroy();
  }
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resume) => setTimeout(resume, 25))) {
    if (await condition()) return true;
  }
  return condition();
}

/**
 * A client that sends the headers and the first part of a file, waits until the server has started
 * writing it (a file appears in `watched`), then hangs up.
 */
async function hangUpMidBody(target: Target, port: number, watched: () => Promise<string[]>): Promise<boolean> {
  const before = new Set(await watched());
  const data = Buffer.alloc(512 * 1024, 0x41);
  const { payload, boundary } = body(target, target.fileName('document'), Buffer.concat([target.start, data, data]));
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  const headers = { ...target.headers(), host: `127.0.0.1:${port}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(payload.length) };
  socket.write(`${target.method} ${target.url()} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`);
  socket.write(payload.subarray(0, payload.length - data.length));
  const started = await until(async () => (await watched()).some((file) => !before.has(file)), 5_000);
  socket.destroy();
  return started;
}

beforeAll(async () => {
  server = await startTestServer();
  ana = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
  // Ana's firm: a form with a company signed in, and one DEHÚ notification.
  const firm = await firmWithCompany(server, 'eva@asesoria.es', SLUG, 'empresa@cliente.es');
  const password = await sendCredentials(server, firm.advisor, firm.company._id);
  company = await companySignIn(server, SLUG, 'empresa@cliente.es', password);
  await upsert(ana.device, ana.fingerprints[0], [envio({ identificador: 'ID-BASURA' })]);
  notificationId = (await page(ana.jar)).items[0]?._id ?? '';
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('refused uploads leave nothing on disk', () => {
  it('a batch of refused uploads to every multipart route: the storage folder holds exactly the files with rows', async () => {
    const bomb = await zipBombXlsx(1_000_001);
    const book = workbook([['NIF', 'Nombre'], ['12345678Z', 'Ana']]);
    const damaged = book.subarray(0, Math.floor(book.length / 2));
    const notAnXlsx = await buildZip({ 'hola.txt': 'no soy un libro' });
    const statuses: string[] = [];
    const wrong: string[] = [];
    for (const target of targets()) {
      const answers = [
        await send(target, target.fileName('sheet'), HTML),
        await send(target, target.fileName('document'), HTML),
        await send(target, target.fileName('sheet'), damaged),
        await send(target, target.fileName('sheet'), notAnXlsx),
        // (The FIE upload decodes a sheet of a million rows before it refuses it: long, and the FIE suite's.)
        ...(target.name === 'FIE upload' ? [] : [await send(target, target.fileName('sheet'), bomb)]),
        // A body that ends before its closing boundary, the file's content of the right type so far.
        await send(target, target.fileName('document'), Buffer.concat([target.start, Buffer.alloc(300_000, 0x20)]), { close: false }),
        ...(target.capBytes === null ? [] : [await send(target, target.fileName('document'), Buffer.concat([target.start, Buffer.alloc(target.capBytes, 0x20)]))]),
      ];
      statuses.push(`${target.name}: ${answers.map((answer) => answer.statusCode).join(' ')}`);
      // Refused, all (the FIE upload answers 200 listing each file as failed), never a 5xx.
      for (const answer of answers) {
        const refused = answer.statusCode >= 400 && answer.statusCode < 500;
        const failedFie = target.name === 'FIE upload' && answer.statusCode === 200 && (answer.json() as { processed: number; alreadyAdded: number }).processed + (answer.json() as { alreadyAdded: number }).alreadyAdded === 0;
        if (!refused && !failedFie) wrong.push(`${target.name}: ${answer.statusCode} ${answer.body.slice(0, 200)}`);
      }
    }
    const files = await filesUnder(storageDir());
    const keys = await indexedKeys();
    console.info(`refused batch: ${statuses.join(' | ')}; files on disk ${files.length}, indexed ${keys.length}`);
    expect(files).toEqual(keys);
    expect(wrong).toEqual([]);
  }, 60_000);

  it('a client that hangs up mid-body leaves nothing on disk, on every multipart route', async () => {
    const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const left: string[] = [];
    // (The FIE upload receives into a temporary folder of its own, outside the storage folder: see the FIE suite.)
    for (const target of targets().filter((each) => each.name !== 'FIE upload' && each.streamsToDisk !== false)) {
      const watched = () => filesUnder(storageDir());
      if (!(await hangUpMidBody(target, port, watched))) left.push(`${target.name}: the server never started writing`);
      const keys = await indexedKeys();
      const clean = await until(async () => (await watched()).every((file) => keys.includes(file)));
      if (!clean) left.push(`${target.name}: ${(await watched()).filter((file) => !keys.includes(file)).join(', ')}`);
    }
    expect(left).toEqual([]);
  }, 60_000);
});
