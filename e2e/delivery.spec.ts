import type { Page } from '@playwright/test';
import { expect, newUser, signUp, test } from './fixtures.ts';

/**
 * How the built app reaches the browser: compressed, with the right cache and CSP headers, and with
 * the sign-in screen free of the signed-in shell and of the widget libraries other screens use.
 */

/** Strings each library leaves in its minified code (attribute names, class prefixes, its own URL). */
const LIBRARY_MARKERS = {
  'React Aria Components': 'data-rac',
  'TanStack Table': 'getCoreRowModel',
  'TanStack Virtual': 'getVirtualItems',
  'react-day-picker': 'rdp-',
  'react-markdown': 'remarkjs/react-markdown',
  // The sign-in screen signs in with plain calls; RTK Query loads with the first screen that uses it.
  'RTK Query': 'injectEndpoints',
  // Schemas check answers after sign-in (renderer/api/session-readers.ts): zod is 9 KiB gzip of /auth's 120.
  zod: '$ZodType',
} as const;

interface LoadedScript {
  path: string;
  encoding: string | undefined;
  body: string;
}

/** Every script the page fetches until the network is idle, with how it was encoded on the wire. */
async function scriptsLoadedBy(page: Page, path: string): Promise<LoadedScript[]> {
  const loaded: Promise<LoadedScript>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    loaded.push(
      Promise.all([response.allHeaders(), response.text()]).then(([headers, body]) => ({
        path: new URL(response.url()).pathname,
        encoding: headers['content-encoding'],
        body,
      })),
    );
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  return Promise.all(loaded);
}

test.describe('delivery', () => {
  test('/auth loads neither the signed-in shell nor the widget libraries, and its scripts come compressed', async ({ page }) => {
    const scripts = await scriptsLoadedBy(page, '/auth');
    await expect(page.getByRole('heading', { name: 'Inicia sesión' })).toBeVisible();

    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.map((script) => script.path).filter((path) => /\/(Layout|Drawer|TopBar|SideMenu)-/.test(path))).toEqual([]);
    for (const [library, marker] of Object.entries(LIBRARY_MARKERS)) {
      expect(scripts.filter((script) => script.body.includes(marker)).map((script) => script.path), library).toEqual([]);
    }
    // Chromium asks for brotli; every script big enough to have a compressed copy is sent as one.
    for (const script of scripts.filter((candidate) => candidate.body.length >= 1024)) {
      expect(script.encoding, script.path).toBe('br');
    }
  });

  test('the shell comes with the page CSP as a header and is revalidated; the signed-in shell loads on Home', async ({ page }) => {
    const response = await page.goto('/auth');
    const headers = (await response?.allHeaders()) ?? {};
    expect(headers['cache-control']).toBe('no-cache');
    expect(headers.vary).toContain('accept-encoding');
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(headers['content-security-policy']).toBe(`${meta}; frame-ancestors 'none'`);

    // The lazily loaded shell still arrives where it is needed.
    const shellScripts: string[] = [];
    page.on('response', (shellResponse) => {
      if (/\/Layout-[\w-]+\.js$/.test(new URL(shellResponse.url()).pathname)) shellScripts.push(shellResponse.url());
    });
    await signUp(page, newUser());
    await expect(page.getByRole('banner')).toBeVisible();
    expect(shellScripts).toHaveLength(1);
  });
});
