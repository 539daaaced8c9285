/** Issue 43 (6): API answers are compressed when the client accepts it, small ones are not, and request bodies are not inflated. */
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fiePaths } from '#shared/api/fie.ts';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../test/harness.ts';
import { upload } from '../modules/fie/test-support.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

/** 60 workers' bajas in one file: a list of tens of KB. */
function bigFie(): string {
  const entries = Array.from({ length: 60 }, (_, index) => ({
    310: '28123456789', 320: '0111', 530: 'ASESORÍA NÚÑEZ SL', 670: `${String(10_000_000 + index)}Z`.padStart(14, '0'), 820: 'PEÑA', 840: `MARÍA ${index}`,
    1020: '20250110', 1090: '1', 1170: 'N',
  }));
  return encodeFieFile({ date: '20250115', entries });
}

describe('API compression', () => {
  it('compresses a big answer with brotli or gzip as the client asks, and sends it plain otherwise', async () => {
    await upload(ana, [{ name: 'grande.fie', data: bigFie() }]);
    const plain = await ana.request({ method: 'GET', url: fiePaths.fie, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(10 * COMPRESSION_THRESHOLD_BYTES);
    const cases = [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const;
    for (const [accept, encoding, inflate] of cases) {
      const response = await ana.request({ method: 'GET', url: fiePaths.fie, headers: { 'accept-encoding': accept } });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers.vary, accept).toContain('accept-encoding');
      expect(response.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 5);
      expect(JSON.parse(inflate(response.rawPayload).toString('utf8')), accept).toEqual(plain.json());
    }
  });

  it('leaves a small answer as it is', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ ok: true });
  });

  it('does not inflate a compressed request body (the body limits count the bytes sent)', async () => {
    const body = gzipSync(JSON.stringify({ entryIds: ['x'] }));
    const response = await ana.request({ method: 'POST', url: fiePaths.exportA3, payload: body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});
