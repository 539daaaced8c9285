import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notificationsPaths, type NotificationsPage, type NotificationsSummary, type WatchedCertificatesResponse } from '#shared/api/notifications.ts';
import { CookieJar, startTestServer, type TestServer } from '../test/harness.ts';
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
});
