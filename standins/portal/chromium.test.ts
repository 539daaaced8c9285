/**
 * Can a real Chromium, driven by playwright-core, log in to the portal with a client certificate? This is
 * what the desktop robots will do. Each case gives the certificate the way a robot could have it: PEM
 * certificate + key files, or a PKCS#12 (.pfx/.p12) file with its password, for RSA and EC keys.
 * Skipped when no Chromium binary exists, except in CI, where that fails.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate, privateKeyPem } from '../../main/certificates/testing/spanish-certificates.ts';
import { SELECTORS, startStandinPortal, type StandinPortal } from './portal.ts';
import { portalOptions } from './test-certificates.ts';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromiumFound = existsSync(chromiumPath);
if (!chromiumFound && process.env.CI) throw new Error(`No Chromium at ${chromiumPath} (set CHROMIUM_PATH); CI must run the certificate login test.`);

const PASSWORD = 'clave-de-prueba';

describe.skipIf(!chromiumFound)(`Chromium logs in to the portal with a client certificate (${chromiumPath})`, () => {
  let portal: StandinPortal;
  let browser: Browser;
  let folder: string;

  beforeAll(async () => {
    portal = await startStandinPortal(portalOptions());
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    folder = mkdtempSync(join(tmpdir(), 'portal-certificates-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  type CertificateFiles = { certPath: string; keyPath: string } | { pfxPath: string; passphrase: string };

  const cases: Array<{ format: 'PEM' | 'PFX'; keyType: 'rsa' | 'ec'; nif: string }> = [
    { format: 'PEM', keyType: 'rsa', nif: '78816596N' },
    { format: 'PEM', keyType: 'ec', nif: '12345678Z' },
    { format: 'PFX', keyType: 'rsa', nif: '00000000T' },
    { format: 'PFX', keyType: 'ec', nif: '99999999R' },
  ];

  it.each(cases)('$format file with an $keyType key: /acceso greets the holder, search and PDF download work', async ({ format, keyType, nif }) => {
    const certificate = createTestCertificate({ nif, givenName: 'ANA', surnames: 'MARTIN SANZ', keyType });
    const base = join(folder, `${nif}-${keyType}`);
    let files: CertificateFiles;
    if (format === 'PEM') {
      writeFileSync(`${base}.crt`, certificate.pem);
      writeFileSync(`${base}.key`, privateKeyPem(certificate));
      files = { certPath: `${base}.crt`, keyPath: `${base}.key` };
    } else {
      writeFileSync(`${base}.pfx`, createPkcs12(certificate, PASSWORD));
      files = { pfxPath: `${base}.pfx`, passphrase: PASSWORD };
    }
    const context = await browser.newContext({ clientCertificates: [{ origin: portal.url, ...files }], ignoreHTTPSErrors: true, acceptDownloads: true });
    try {
      const page = await context.newPage();
      await page.goto(portal.url);
      await page.click(SELECTORS.loginLink);
      await expect.poll(() => page.textContent(SELECTORS.welcome)).toBe(`Bienvenido/a, MARTIN SANZ ANA - ${nif}`);
      expect(await page.textContent(SELECTORS.holderNif)).toBe(nif);

      await page.click(SELECTORS.searchLink);
      await page.getByLabel('Fecha desde').fill('2026-01-01');
      await page.getByLabel('Fecha hasta').fill('2026-12-31');
      await page.click(SELECTORS.searchButton);
      const rows = page.locator(SELECTORS.resultRow);
      await expect.poll(() => rows.count()).toBe(6);

      const [download] = await Promise.all([page.waitForEvent('download'), rows.first().locator(SELECTORS.resultDownload).click()]);
      const id = await rows.first().locator(SELECTORS.resultId).textContent();
      expect(download.suggestedFilename()).toBe(`${id}.pdf`);
      const saved = join(folder, `${id}.pdf`);
      await download.saveAs(saved);
      const pdf = readFileSync(saved, 'latin1');
      expect(pdf.startsWith('%PDF-')).toBe(true);
      expect(pdf).toContain(`NIF del titular: ${nif}`);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a PFX with the wrong password fails when the context is created, before any page loads', async () => {
    const pfxPath = join(folder, 'wrong-password.pfx');
    writeFileSync(pfxPath, createPkcs12(createTestCertificate({ keyType: 'ec' }), PASSWORD));
    await expect(browser.newContext({ clientCertificates: [{ origin: portal.url, pfxPath, passphrase: 'otra-clave' }] })).rejects.toThrow(/Failed to load client certificate: mac verify failure/);
  }, 60_000);

  it('without a certificate for the origin, Chromium gets the 403 page', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${portal.url}/acceso`);
      expect(response?.status()).toBe(403);
      expect(await page.textContent(SELECTORS.errorMessage)).toBe('No se ha presentado ningún certificado.');
    } finally {
      await context.close();
    }
  }, 60_000);
});
