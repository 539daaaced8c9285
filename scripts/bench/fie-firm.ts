import { fiePaths } from '#shared/api/fie.ts';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../server/test/harness.ts';
import { multipart } from '../../server/modules/fie/test-support.ts';

/**
 * A fresh SQLite server (no timers) with one firm that has uploaded `entries` FIE entries in one file:
 * what the FIE module's benches (fie-list-pages.ts, fie-reconciliation.ts) measure against.
 */
export async function serverWithFieFirm(entries: number): Promise<{ server: TestServer; firm: CookieJar }> {
  const server = await startTestServer({ scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  try {
    const firm = await registerUser(server.app, 'bench@asesoria.es', 'Bench');
    const { payload, headers } = multipart([{ name: 'anual.fie', data: [...sampleFieChunks(entries, 2_000)].join('') }]);
    const uploaded = await firm.request({ method: 'POST', url: fiePaths.upload, payload, headers });
    if (uploaded.statusCode !== 200) throw new Error(`subida: ${uploaded.statusCode} ${uploaded.body}`);
    return { server, firm };
  } catch (error) {
    await server.close();
    throw error;
  }
}
