import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

export interface RouteScripts {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  /** What the server sends for the same files when asked for brotli (headers excluded). */
  brTransferBytes: number;
  /** Of those files, how many came back brotli-encoded. */
  brEncodedFiles: number;
}

/** Bytes on the wire for one GET with `Accept-Encoding: br` (Node's http does not decode, so this is the transfer size). */
function brTransfer(url: string): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': 'br' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Loads a page in a fresh Chromium context (empty cache) and measures every script it fetched until
 * the network is idle (lazy route chunks included): raw size, gzip -9 size, and what the server
 * actually transfers for those files with `Accept-Encoding: br`.
 */
export async function measureRouteScripts(url: string, signIn?: { email: string; password: string }): Promise<RouteScripts> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    // Signing in through the API sets the session cookies without loading any page script first.
    if (signIn) await page.request.post(new URL('/api/auth/login', url).href, { data: signIn });
    const scripts: Promise<{ url: string; body: Buffer }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => ({ url: response.url(), body })));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // 'networkidle' is 500 ms without a request: on a busy machine evaluating the entry can take longer
    // than that before the route asks for its chunks (a signed-in visit was once counted as the entry
    // alone). Done when a further second brought no new script.
    for (let counted = -1; counted !== scripts.length; ) {
      counted = scripts.length;
      await page.waitForTimeout(1_000);
      await page.waitForLoadState('networkidle');
    }
    const loaded = await Promise.all(scripts);
    const transfers = await Promise.all(loaded.map((script) => brTransfer(script.url)));
    return {
      files: loaded.length,
      rawBytes: loaded.reduce((sum, { body }) => sum + body.length, 0),
      gzipBytes: loaded.reduce((sum, { body }) => sum + gzipSync(body, { level: 9 }).length, 0),
      brTransferBytes: transfers.reduce((sum, transfer) => sum + transfer.bytes, 0),
      brEncodedFiles: transfers.filter((transfer) => transfer.encoding === 'br').length,
    };
  } finally {
    await browser.close();
  }
}
