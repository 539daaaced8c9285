import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { pageCsp } from './web-app.ts';

let server: TestServer | undefined;
let webRoot: string | undefined;
afterEach(async () => {
  await server?.close();
  if (webRoot) await rm(webRoot, { recursive: true, force: true });
});

const POLICY = "default-src 'self'; script-src 'self'";
const INDEX = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${POLICY}" /><title>AutoAsesor</title><div id="root"></div>`;
const SCRIPT = 'console.log("hola");\n'.repeat(200);

/** A server whose webRoot is a tiny fake renderer build, with the .br/.gz files the build writes. */
async function serverWithWebRoot(): Promise<TestServer> {
  webRoot = await mkdtemp(join(tmpdir(), 'autoasesor-web-'));
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await writeFile(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const [file, text] of [['index.html', INDEX], [join('assets', 'app.js'), SCRIPT]] as const) {
    await writeFile(join(webRoot, file), text);
    await writeFile(join(webRoot, `${file}.br`), brotliCompressSync(text));
    await writeFile(join(webRoot, `${file}.gz`), gzipSync(text));
  }
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
      // The shell is revalidated on every visit, so a deploy is seen at once.
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends the page its CSP as a header too: the meta tag of index.html plus frame-ancestors', async () => {
    server = await serverWithWebRoot();
    for (const url of ['/', '/index.html', '/home']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br' } });
      expect(response.headers['content-security-policy'], url).toBe(`${POLICY}; frame-ancestors 'none'`);
    }
    // Assets and API answers keep only the anti-framing policy.
    const script = await server.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(script.headers['content-security-policy']).toBe("frame-ancestors 'none'");
  });

  it('sends brotli or gzip files as Accept-Encoding asks, and the plain file otherwise', async () => {
    server = await serverWithWebRoot();
    const cases = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const;
    for (const [acceptEncoding, expected] of cases) {
      const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      const response = await server.app.inject({ method: 'GET', url: '/assets/app.js', headers });
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(response.headers['content-type'], acceptEncoding).toContain('javascript');
      expect(response.headers.vary, acceptEncoding).toContain('accept-encoding');
      expect(response.headers['cache-control'], acceptEncoding).toBe('public, max-age=31536000, immutable');
      const body = expected === 'br' ? brotliDecompressSync(response.rawPayload) : expected === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
      expect(body.toString(), acceptEncoding).toBe(SCRIPT);
      if (expected) expect(response.rawPayload.length).toBeLessThan(SCRIPT.length);
    }
  });

  it('serves the shell compressed too, at / and for client routes', async () => {
    server = await serverWithWebRoot();
    for (const url of ['/', '/flows/42']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['content-type'], url).toContain('text/html');
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers.vary, url).toContain('accept-encoding');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(INDEX);
    }
  });

  it('falls back to the plain file when a file has no compressed sibling, and revalidates unhashed files', async () => {
    server = await serverWithWebRoot();
    const response = await server.app.inject({ method: 'GET', url: '/favicon.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toContain('<svg');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves built assets as files, cached for good since their names carry a content hash', async () => {
    server = await serverWithWebRoot();
    const response = await server.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SCRIPT);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('refuses framing and MIME sniffing on pages and API answers alike', async () => {
    server = await serverWithWebRoot();
    for (const url of ['/', '/api/health', '/api/unknown']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.headers, url).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'same-origin',
      });
      expect(response.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
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

describe('pageCsp', () => {
  it('reads the policy of the meta tag, whatever the attribute order and quotes', () => {
    expect(pageCsp(`<meta http-equiv="Content-Security-Policy" content="default-src 'self';" />`)).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(pageCsp(`<meta\n  content="img-src data:"\n  http-equiv='content-security-policy'>`)).toBe("img-src data:; frame-ancestors 'none'");
  });

  it('gives null for a page without a policy', () => {
    expect(pageCsp('<meta charset="UTF-8"><title>x</title>')).toBeNull();
    expect(pageCsp('<meta http-equiv="Content-Security-Policy" content="">')).toBeNull();
  });
});
