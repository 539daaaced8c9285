import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';

let server: TestServer | undefined;
let webRoot: string | undefined;
afterEach(async () => {
  await server?.close();
  if (webRoot) await rm(webRoot, { recursive: true, force: true });
});

/** A server whose webRoot is a tiny fake renderer build. */
async function serverWithWebRoot(): Promise<TestServer> {
  webRoot = await mkdtemp(join(tmpdir(), 'autoasesor-web-'));
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>AutoAsesor</title><div id="root"></div>');
  await writeFile(join(webRoot, 'assets', 'app.js'), 'console.log("hola")');
  return startTestServer({ webRoot });
}

describe('web app and fallbacks', () => {
  it('serves index.html at / and for client routes that accept HTML', async () => {
    server = await serverWithWebRoot();
    for (const url of ['/', '/home', '/flows/42?tab=2']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<title>AutoAsesor</title>');
    }
  });

  it('serves built assets as files, cached for good since their names carry a content hash', async () => {
    server = await serverWithWebRoot();
    const response = await server.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("hola")');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('refuses framing and MIME sniffing on pages and API answers alike', async () => {
    server = await serverWithWebRoot();
    for (const url of ['/', '/api/health', '/api/unknown']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.headers, url).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-security-policy': "frame-ancestors 'none'",
        'referrer-policy': 'same-origin',
      });
    }
    const page = await server.app.inject({ method: 'GET', url: '/home', headers: { accept: 'text/html' } });
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('answers unknown /api paths with a JSON 404, even for browsers', async () => {
    server = await serverWithWebRoot();
    for (const [method, accept] of [['GET', 'text/html'], ['GET', 'application/json'], ['POST', '*/*']] as const) {
      const response = await server.app.inject({ method, url: '/api/unknown', headers: { accept } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'Recurso no encontrado' });
    }
  });

  it('answers a missing asset (not HTML) with a 404 rather than the page', async () => {
    server = await serverWithWebRoot();
    const response = await server.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(404);
  });

  it('says the web app is not built when there is no webRoot, and still serves the API', async () => {
    server = await startTestServer();
    const page = await server.app.inject({ method: 'GET', url: '/home', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(404);
    expect(page.json().message).toContain('npm run build:web');
    expect((await server.app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ ok: true });
  });
});
