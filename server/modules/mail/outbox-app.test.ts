import { afterEach, describe, expect, it } from 'vitest';
import { mailPaths } from '#shared/api/mail.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { withDatabase } from '../machines/test-support.ts';
import { insertRun, memberOf } from './outbox-test-support.ts';
import { SMTP_NOT_CONFIGURED_MESSAGE } from './transports/smtp.ts';

let server: TestServer;
afterEach(async () => server.close());

describe('the app’s mail outbox timer', () => {
  it('queues and sends a failed scheduled run’s notice on its own, once, through the server mailer (logged without SMTP_URL)', async () => {
    server = await startTestServer({ mailOutboxIntervalMs: 50 });
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const runId = await withDatabase(server, async (db) => insertRun(db, { ...(await memberOf(db, 'ana@asesoria.es')), result: 'Fail', launchStatus: 500, scheduled: true, message: 'El portal no responde', finishedAt: new Date() }));
    const notices = () => server.logLines().filter((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'run_notice');
    await expect.poll(notices, { timeout: 5_000 }).toHaveLength(1);
    // Later passes find the cause already handled.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(notices()).toEqual([expect.objectContaining({ mail: { to: 'ana@asesoria.es', purpose: 'run_notice' } })]);
    const response = await ana.get(`${mailPaths.deliveries}?runId=${runId}`);
    expect(response.json()).toMatchObject({ items: [{ kind: 'notice', transport: 'smtp', state: 'failed', error: SMTP_NOT_CONFIGURED_MESSAGE, to: ['ana@asesoria.es'] }] });
  });
});
