import { randomUUID } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notificationsPaths, type NotificationDetail, type NotificationDocument } from '#shared/api/notifications.ts';
import { pathFor } from '#shared/api/flows.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc } from '../devices/test-support.ts';
import { certificate, machineHash, sync, withDatabase } from '../machines/test-support.ts';
import { ANNEX_TYPE_MESSAGE, DOCUMENT_NOT_PDF_MESSAGE } from './messages.ts';
import { Clock, NOTIFICATION_TABLES, NOW, PDF, envio, firmWithPc, multipartFile, page, upsert, type TestFirm } from './test-support.ts';

/**
 * Issue 39 point 1: a DEHÚ document is stored only as what DEHÚ delivers, judged by its bytes, and served
 * with a policy under which nothing runs; only the machine holding the notification's certificate writes.
 */

let server: TestServer;
let firm: TestFirm;
let notificationId: string;

beforeEach(async () => {
  server = await startTestServer({ now: new Clock().now });
  firm = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
  await upsert(firm.device, firm.fingerprints[0], [envio({ identificador: 'ID-1' })]);
  notificationId = (await page(firm.jar)).items[0]!._id;
});
afterEach(async () => server.close());

const DOCUMENT_CSP = "default-src 'none'; sandbox; frame-ancestors 'self'";
const DOWNLOAD_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";

/** A PNG's signature and IHDR, enough for its magic. */
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(32)]);

/** Pages and images that run a script when a browser opens them inline. */
const HOSTILE: Record<string, string> = {
  'xhtml.xml': '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><script>fetch("/api/colleagues/invitations",{method:"POST"})</script></body></html>',
  'svg-in-xml.xml': '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
  'bare.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
  'page.pdf': '<!doctype html><html><body><script>alert(1)</script></body></html>',
  'stylesheet.xml': '<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="#s"?>\n<doc><xsl:stylesheet id="s" version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><html><script>alert(1)</script></html></xsl:template></xsl:stylesheet></doc>',
  'bom.xml': '\ufeff<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
  // A PDF's magic further in is not a PDF.
  'late-magic.pdf': ' %PDF-1.4\n<html><script>alert(1)</script></html>',
};

function upload(device: { token: string }, query: string, filename: string, data: Buffer, id = notificationId) {
  const { payload, headers } = multipartFile(filename, data);
  return server.app.inject({ method: 'POST', url: `${pathFor(notificationsPaths.robotDocuments, { id })}?${query}`, payload, headers: { ...headers, authorization: `Device ${device.token}` } });
}

const opened = (device: DeviceClient, id = notificationId) =>
  device.post(pathFor(notificationsPaths.robotOpened, { id }), { fechaEvento: '2026-03-10T11:05:00+01:00', csvResguardo: 'CSV9', receptor: { nombre: 'ANA', nif: '12345678Z' } });

const serve = (documentId: string) => firm.jar.get(pathFor(notificationsPaths.document, { id: notificationId, documentId }));

/** Files under the server's storage folder, at any depth. */
async function storedFiles(): Promise<number> {
  const entries = await readdir(join(server.dir, 'storage'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

describe('what is stored', () => {
  it('refuses XHTML, XML, SVG and HTML as any kind of document with a Spanish 415, leaving no row and no file', async () => {
    const rows = server.countTables(NOTIFICATION_TABLES);
    for (const [filename, text] of Object.entries(HOSTILE)) {
      for (const kind of ['documento', 'acuse', 'anexo'] as const) {
        const response = await upload(firm.device, `kind=${kind}&name=${filename}`, filename, Buffer.from(text, 'utf8'));
        expect(response.statusCode, `${kind} ${filename}: ${response.body}`).toBe(415);
        expect(response.json()).toMatchObject({ code: 'FILE_TYPE_REFUSED', message: kind === 'anexo' ? ANNEX_TYPE_MESSAGE : DOCUMENT_NOT_PDF_MESSAGE });
      }
    }
    // An empty file is no PDF either.
    expect((await upload(firm.device, 'kind=documento&name=vacio.pdf', 'vacio.pdf', Buffer.alloc(0))).statusCode).toBe(415);
    expect(server.countTables(NOTIFICATION_TABLES)).toEqual(rows);
    expect(await storedFiles()).toBe(0);
  });

  it('takes the notice and the acuse only as PDFs, and an annex as a PDF, an image or a zip', async () => {
    expect((await upload(firm.device, 'kind=documento&name=aviso.png', 'aviso.png', PNG)).statusCode).toBe(415);
    const annex = await upload(firm.device, 'kind=anexo&name=escaneo', 'escaneo', PNG);
    expect(annex.statusCode, annex.body).toBe(201);
    // Named after what it is, so a download opens in the right program.
    expect(annex.json()).toMatchObject({ kind: 'anexo', name: 'escaneo.png', mimeType: 'image/png' });
    const renamed = await upload(firm.device, 'kind=acuse&name=acuse.html', 'acuse.html', PDF);
    expect(renamed.json()).toMatchObject({ name: 'acuse.html.pdf', mimeType: 'application/pdf' });
    expect(server.countRows('dehu_documents')).toBe(2);
    expect(await storedFiles()).toBe(2);
  });
});

describe('how it is served', () => {
  it('serves the PDF notice inline as application/pdf under a policy where nothing runs', async () => {
    const stored = await upload(firm.device, 'kind=documento&name=Notificación.pdf', 'x.pdf', PDF);
    expect(stored.statusCode, stored.body).toBe(201);
    const served = await serve((stored.json() as NotificationDocument)._id);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PDF)).toBe(true);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe("inline; filename*=UTF-8''Notificaci%C3%B3n.pdf");
    expect(served.headers['content-security-policy']).toBe(DOCUMENT_CSP);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves every annex as a download, a PDF one too', async () => {
    for (const [name, data, type] of [['anexo.pdf', PDF, 'application/pdf'], ['plano.png', PNG, 'image/png']] as const) {
      const stored = await upload(firm.device, `kind=anexo&name=${name}`, name, data);
      expect(stored.statusCode, stored.body).toBe(201);
      const served = await serve((stored.json() as NotificationDocument)._id);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${name}`);
      expect(served.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves a document stored before types were enforced (an XHTML page) as opaque bytes to download', async () => {
    const id = randomUUID();
    const storageKey = `legacy/${id}`;
    await mkdir(join(server.dir, 'storage', 'legacy'), { recursive: true });
    await writeFile(join(server.dir, 'storage', storageKey), HOSTILE['xhtml.xml']!);
    const groupId = await withDatabase(server, async (db) => {
      const { group_id } = await db.selectFrom('dehu_notifications').select('group_id').where('id', '=', notificationId).executeTakeFirstOrThrow();
      await db
        .insertInto('dehu_documents')
        .values({ id, notification_id: notificationId, group_id, kind: 'documento', name: 'aviso.xml', mime_type: 'application/xml', size: 10, sha256: 'x', storage_key: storageKey, created_at: NOW.toISOString() })
        .execute();
      return group_id;
    });
    expect(groupId).toBeTruthy();
    const served = await serve(id);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toBe("attachment; filename*=UTF-8''aviso.xml.bin");
    expect(served.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
  });
});

describe('only the machine holding the certificate writes', () => {
  /** A second linked PC of the same firm (same user), with certificates of its own. */
  async function secondPc(certificates: ReturnType<typeof certificate>[]): Promise<DeviceClient> {
    const link = await linkPc(firm.jar, 'recepcion');
    await sync(firm.jar, 'PC recepcion', { machineHashCode: machineHash('recepcion'), digitalCertificates: certificates });
    return new DeviceClient(server, link.deviceToken);
  }

  it("refuses another device of the firm whose machine does not hold it: 403 to upload and to mark opened, nothing written", async () => {
    const other = await secondPc([certificate('OTRA PERSONA', 300, NOW)]);
    const rows = server.countTables(NOTIFICATION_TABLES);
    const refused = await upload(other, 'kind=documento&name=n.pdf', 'n.pdf', PDF);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'CERTIFICATE_NOT_ON_THIS_MACHINE', message: expect.stringMatching(/^Solo el equipo que tiene el certificado «ANA GARCÍA despacho - 00000000T»/) });
    const notOpened = await opened(other);
    expect(notOpened.statusCode, notOpened.body).toBe(403);
    expect(server.countTables(NOTIFICATION_TABLES)).toEqual(rows);
    expect(await storedFiles()).toBe(0);
    const detail = (await firm.jar.get(pathFor(notificationsPaths.one, { id: notificationId }))).json() as NotificationDetail;
    expect(detail).toMatchObject({ estado: 'pendiente', openedAt: null, openedBy: null, documentCount: 0 });
    // The machine that holds it still can; an unknown notification is 404 to either.
    expect((await upload(firm.device, 'kind=documento&name=n.pdf', 'n.pdf', PDF)).statusCode).toBe(201);
    expect((await opened(firm.device)).statusCode).toBe(200);
    expect((await opened(other, randomUUID())).statusCode).toBe(404);
  });

  it('lets another machine that holds the same certificate open it (the one that found it is not the only holder)', async () => {
    const other = await secondPc([certificate('ANA GARCÍA despacho', 300, NOW)]);
    expect((await upload(other, 'kind=documento&name=n.pdf', 'n.pdf', PDF)).statusCode).toBe(201);
    expect((await opened(other)).statusCode).toBe(200);
  });
});
