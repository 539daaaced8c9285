import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

/** Loads a page in Chromium and sums the gzip size of every script it fetched (lazy route chunks included). */
export async function measureRouteScripts(
  url: string,
  signIn?: { email: string; password: string },
): Promise<{ files: number; rawBytes: number; gzipBytes: number }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    // Signing in through the API sets the session cookies without loading any page script first.
    if (signIn) await page.request.post(new URL('/api/auth/login', url).href, { data: signIn });
    const scripts: Promise<Buffer>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.body());
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const bodies = await Promise.all(scripts);
    return {
      files: bodies.length,
      rawBytes: bodies.reduce((sum, body) => sum + body.length, 0),
      gzipBytes: bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0),
    };
  } finally {
    await browser.close();
  }
}
