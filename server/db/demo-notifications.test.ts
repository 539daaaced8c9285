import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathFor } from '#shared/api/flows.ts';
import { notificationsPaths, type NotificationDetail, type NotificationsPage, type NotificationsSummary, type WatchedCertificatesResponse } from '#shared/api/notifications.ts';
import { CookieJar, startTestServer, type TestServer } from '../test/harness.ts';
import { demoDocumentsFolder } from './demo-notifications.ts';
import { DEMO_ACCOUNT } from './seed.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');

describe('the demo account’s DEHÚ notifications', () => {
  let server: TestServer;
  let demo: CookieJar;
  beforeEach(async () => {
    server = await startTestServer({ demoAccount: true, demoFiles: false, now: () => NOW, scheduleRunnerIntervalMs: 0 });
    demo = new CookieJar(server.app);
    expect((await demo.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password })).statusCode).toBe(200);
  });
  afterEach(async () => server.close());

  it('fills the table: pending and realizadas of three watched certificates, one expiring soon and one new', async () => {
    const pending = (await demo.get(`${notificationsPaths.list}?sortby=disposicion&sortdir=asc`)).json<NotificationsPage>();
    expect(pending.items.map((item) => item.identificador)).toEqual(['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0005', 'DEMO-0004']);
    expect(pending.items.every((item) => item.certificate.machine !== null)).toBe(true);
    expect((await demo.get(`${notificationsPaths.list}?view=realizadas`)).json<NotificationsPage>().total).toBe(2);
    const watched = (await demo.get(notificationsPaths.certificates)).json<WatchedCertificatesResponse>().items;
    expect(watched).toHaveLength(3);
    expect(watched.every((item) => item.available && item.lastUpdate?.state === 'done')).toBe(true);
    const summary = (await demo.get(notificationsPaths.summary)).json<NotificationsSummary>();
    expect(summary).toMatchObject({ newCount: 1, expiringSoonCount: 1 });
  });

  it('gives the accepted one its notice and acuse, the PDFs the repository holds, so the viewer shows the notice', async () => {
    const realizadas = (await demo.get(`${notificationsPaths.list}?view=realizadas`)).json<NotificationsPage>().items;
    const accepted = realizadas.find((item) => item.estado === 'aceptada');
    expect(accepted).toMatchObject({ identificador: 'DEMO-0006', documentCount: 2 });
    const detail = (await demo.get(pathFor(notificationsPaths.one, { id: accepted?._id ?? '' }))).json<NotificationDetail>();
    expect(detail.documents.map((document) => [document.kind, document.name, document.mimeType])).toEqual([
      ['documento', 'DEMO-0006.pdf', 'application/pdf'],
      ['acuse', 'acuse-DEMO-0006.pdf', 'application/pdf'],
    ]);
    for (const document of detail.documents) {
      const served = await demo.get(pathFor(notificationsPaths.document, { id: detail._id, documentId: document._id }));
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-disposition']).toMatch(/^inline;/);
      expect(served.rawPayload.equals(await readFile(join(demoDocumentsFolder(), document.name)))).toBe(true);
      expect(served.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    // The pending ones have none yet (documents come with opening them).
    const pending = (await demo.get(notificationsPaths.list)).json<NotificationsPage>().items;
    expect(pending.every((item) => item.documentCount === 0)).toBe(true);
  });
});
