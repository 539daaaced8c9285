/**
 * Descargar justificantes against the real stand-in portal (standins/portal: HTTPS with mutual TLS) in a
 * real Chromium driven by playwright-core. The test builds the desktop context the runtime would: its
 * openBrowser presents the PKCS#12 of the certificate chosen in the input (by fingerprint) to the
 * portal's origin, like main/robots does with the certificate it takes from this PC's store.
 * Skipped when no Chromium binary exists, except in CI, where that fails.
 */
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate, testAuthority, type TestCertificate } from '../../../main/certificates/testing/spanish-certificates.ts';
import { searchDocuments } from '../../../standins/portal/documents.ts';
import { SELECTORS, startStandinPortal, type StandinPortal } from '../../../standins/portal/portal.ts';
import { portalOptions } from '../../../standins/portal/test-certificates.ts';
import type { DesktopRobotContext } from '../_lib/desktop.ts';
import { STOPPED_MESSAGE } from '../_lib/run.ts';
import { runDesktopRobot, type TestRunOptions } from '../_lib/testing.ts';
import robot from './robot.ts';
import settingsFile from './settings.json' with { type: 'json' };

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromiumFound = existsSync(chromiumPath);
if (!chromiumFound && process.env.CI) throw new Error(`No Chromium at ${chromiumPath} (set CHROMIUM_PATH); CI must run the desktop robot's test.`);

const NIF = '78816596N';
const PASSWORD = 'clave-del-almacen';

it('settings.json names the stand-in portal\'s selectors, so the robot and the portal agree', () => {
  expect(settingsFile.selectors).toEqual(SELECTORS);
  expect(settingsFile.baseUrl).toBe('https://dehu.redsara.es');
  expect(settingsFile.ignoreHTTPSErrors).toBe(false);
});

describe.skipIf(!chromiumFound)(`Descargar justificantes on the stand-in portal (${chromiumPath})`, () => {
  let portal: StandinPortal;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** This "PC's" certificates with their keys, by fingerprint (what a Certificate input holds). */
  const store = new Map<string, { pfx: Buffer; passphrase: string }>();
  let holder: TestCertificate;

  function install(certificate: TestCertificate): string {
    store.set(certificate.fingerprint, { pfx: Buffer.from(createPkcs12(certificate, PASSWORD)), passphrase: PASSWORD });
    return certificate.fingerprint;
  }

  /** What the runtime's openBrowser does: a fresh context presenting the chosen certificate to the origins. */
  function openBrowser(inputs: Record<string, unknown>, settings: Record<string, unknown>): DesktopRobotContext['openBrowser'] {
    return async ({ certificateInput, origins = [] } = {}) => {
      const chosen = certificateInput === undefined ? undefined : store.get(String(inputs[certificateInput]));
      if (!chosen) throw new Error('El certificado elegido no está en este dispositivo');
      const context = await browser.newContext({
        acceptDownloads: true,
        ignoreHTTPSErrors: settings['ignoreHTTPSErrors'] === true,
        clientCertificates: origins.map((origin) => ({ origin, pfx: chosen.pfx, passphrase: chosen.passphrase })),
      });
      contexts.push(context);
      return context.newPage();
    };
  }

  /** The flow's settings with this installation's override: the stand-in's address, its self-made HTTPS certificate. */
  function standinSettings(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return { ...settingsFile, baseUrl: portal.url, ignoreHTTPSErrors: true, pageTimeoutSeconds: 10, ...overrides };
  }

  async function launch(inputs: Record<string, unknown>, options: TestRunOptions & { settings?: Record<string, unknown> } = {}) {
    const settings = options.settings ?? standinSettings();
    return runDesktopRobot(robot, { ...options, inputs, settings, openBrowser: openBrowser(inputs, settings) });
  }

  const pdfText = (data: Uint8Array) => Buffer.from(data).toString('latin1');

  beforeAll(async () => {
    portal = await startStandinPortal(portalOptions());
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    holder = createTestCertificate({ nif: NIF, givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
    install(holder);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  it('logs in with the certificate, searches the period and downloads each PDF, which names the NIF', async () => {
    const expected = searchDocuments(NIF, '2026-01-01', '2026-12-31');
    expect(expected.length).toBe(6);

    const { result, logs, progress } = await launch({ certificado: holder.fingerprint, desde: '2026-01-01', hasta: '2026-12-31' });

    expect(result.message).toBeUndefined();
    expect(result.result).toBe('Success');
    expect(result.outputs.map((output) => output.name)).toEqual(expected.map((document) => `${document.id}.pdf`));
    for (const [index, output] of result.outputs.entries()) {
      const text = pdfText(output.data);
      expect(text.startsWith('%PDF-')).toBe(true);
      expect(text).toContain(`NIF del titular: ${NIF}`);
      expect(text).toContain(`Identificador: ${expected[index]?.id}`);
    }
    expect(result.usageUnits).toBe(6);
    expect(result.summary).toEqual({ NIF, Desde: '01/01/2026', Hasta: '31/12/2026', 'Justificantes encontrados': 6, 'Justificantes descargados': 6 });
    expect(progress).toEqual([[0, 6], [1, 6], [2, 6], [3, 6], [4, 6], [5, 6], [6, 6]]);
    const lines = logs.map((line) => line.text);
    expect(lines).toContain(`Dentro del portal: «Bienvenido/a, RODRIGUEZ GARCIA ELENA - ${NIF}», NIF ${NIF}.`);
    expect(lines).toContain(`Buscando los justificantes del NIF ${NIF} entre el 01/01/2026 y el 31/12/2026.`);
    expect(lines).toContain(`Descargado ${expected[0]?.id}.pdf: ${expected[0]?.concept} (${expected[0]?.date.split('-').reverse().join('/')}).`);
    expect(lines.at(-1)).toBe('Descargados 6 de 6 justificantes.');
    expect(logs.filter((line) => line.level !== 'info')).toEqual([]);
  }, 60_000);

  it('downloads only the documents of a shorter period, for the NIF typed in the form', async () => {
    const all = searchDocuments(NIF, '', '');
    // From the second document's date to the fifth's: at least those four, whatever the NIF's dates are.
    const from = all[1]!.date;
    const to = all[4]!.date;
    const expected = searchDocuments(NIF, from, to);

    const { result } = await launch({ certificado: holder.fingerprint, desde: from, hasta: to, nif: ` ${NIF.toLowerCase()} ` });

    expect(result.result).toBe('Success');
    expect(result.outputs.map((output) => output.name)).toEqual(expected.map((document) => `${document.id}.pdf`));
    expect(result.usageUnits).toBe(expected.length);
  }, 60_000);

  it('a period without documents is a success with 0 downloaded, and the log says so', async () => {
    const { result, logs, progress } = await launch({ certificado: holder.fingerprint, desde: '2025-01-01', hasta: '2025-12-31' });

    expect(result).toEqual({
      result: 'Success',
      usageUnits: 0,
      outputs: [],
      summary: { NIF, Desde: '01/01/2025', Hasta: '31/12/2025', 'Justificantes encontrados': 0, 'Justificantes descargados': 0 },
    });
    expect(logs.map((line) => line.text)).toContain(`El portal no tiene justificantes del NIF ${NIF} entre el 01/01/2025 y el 31/12/2025: no hay nada que descargar.`);
    expect(progress).toEqual([[0, 0]]);
  }, 60_000);

  it('a certificate from an authority the portal does not trust fails with the portal\'s reason, in Spanish', async () => {
    const stranger = createTestCertificate({ nif: '00000000T', keyType: 'ec', issuer: testAuthority('AC Desconocida de Pruebas') });
    install(stranger);

    const { result, logs } = await launch({ certificado: stranger.fingerprint, desde: '2026-01-01', hasta: '2026-12-31' });

    const message = 'El portal ha rechazado el certificado: El certificado no ha sido emitido por una autoridad de certificación reconocida.';
    expect(result).toEqual({ result: 'Fail', message, usageUnits: 0, outputs: [] });
    expect(logs.at(-1)).toEqual({ level: 'error', text: message });
  }, 60_000);

  it('stopped mid-way, it stops between two documents and delivers nothing', async () => {
    const { result, logs, progress } = await launch({ certificado: holder.fingerprint, desde: '2026-01-01', hasta: '2026-12-31' }, { stopAfter: 2 });

    expect(result).toEqual({ result: 'Fail', message: STOPPED_MESSAGE, usageUnits: 0, outputs: [] });
    // Two documents were downloaded, the third never started.
    expect(progress).toEqual([[0, 6], [1, 6], [2, 6]]);
    expect(logs.filter((line) => line.text.startsWith('Descargado '))).toHaveLength(2);
    expect(logs.at(-1)).toEqual({ level: 'warn', text: 'Detenido después de descargar 2 de 6 justificantes.' });
  }, 60_000);

  it('a NIF the certificate may not search is the user\'s input, with the portal\'s words', async () => {
    const { result } = await launch({ certificado: holder.fingerprint, desde: '2026-01-01', hasta: '2026-12-31', nif: '00000000T' });

    expect(result).toEqual({
      result: 'WrongInput',
      message: 'El portal no ha aceptado la búsqueda: El NIF consultado no coincide con el del certificado.',
      usageUnits: 0,
      outputs: [],
    });
  }, 60_000);

  it('pages that are not the expected ones (stale selectors) fail with a Spanish message, not a timeout trace', async () => {
    const settings = standinSettings({ pageTimeoutSeconds: 1, selectors: { ...SELECTORS, welcome: '#bienvenida-nueva', errorMessage: '#error-nuevo' } });

    const { result } = await launch({ certificado: holder.fingerprint, desde: '2026-01-01', hasta: '2026-12-31' }, { settings });

    expect(result.result).toBe('Fail');
    expect(result.message).toBe(
      'Acceso con certificado: el portal no ha mostrado la página esperada. Puede que no responda o que haya cambiado (revisa los selectores de la configuración del robot).',
    );
  }, 60_000);

  it('a portal that does not answer fails with its address', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const settings = standinSettings({ baseUrl: `https://127.0.0.1:${closedPort}/` });

    const { result } = await launch({ certificado: holder.fingerprint, desde: '2026-01-01', hasta: '2026-12-31' }, { settings });

    expect(result.result).toBe('Fail');
    // Chromium reaches a client-certificate origin through Playwright's local proxy: it names the failure its way.
    expect(result.message).toMatch(new RegExp(`^No se ha podido abrir el portal https://127\\.0\\.0\\.1:${closedPort}: net::ERR_[A-Z_]+$`));
  }, 60_000);
});

describe('Descargar justificantes before it opens a browser', () => {
  const neverOpens: DesktopRobotContext['openBrowser'] = () => Promise.reject(new Error('The browser must not open'));
  const run = (inputs: Record<string, unknown>, settings: Record<string, unknown> = settingsFile) => runDesktopRobot(robot, { inputs, settings, openBrowser: neverOpens });

  it('an inverted period is the user\'s input to fix', async () => {
    const { result } = await run({ certificado: 'ab'.repeat(32), desde: '2026-05-01', hasta: '2026-04-30' });
    expect(result).toEqual({
      result: 'WrongInput',
      message: 'La fecha Desde (01/05/2026) es posterior a la fecha Hasta (30/04/2026): corrígelas.',
      usageUnits: 0,
      outputs: [],
    });
  });

  it.each([
    [{ desde: '2026-01-01', hasta: '2026-01-31' }, 'Elige el certificado con el que se entra en el portal.'],
    [{ certificado: 'ab'.repeat(32), desde: '2026-01-01' }, 'Indica las fechas Desde y Hasta del periodo.'],
    [{ certificado: 'ab'.repeat(32), desde: '2026-01-01', hasta: '2026-01-31', nif: '12345678A' }, '«12345678A» no es un NIF, NIE ni CIF válido.'],
  ])('missing or wrong inputs %j: %s', async (inputs, message) => {
    const { result } = await run(inputs);
    expect(result).toEqual({ result: 'WrongInput', message, usageUnits: 0, outputs: [] });
  });

  it('settings without an address or a selector fail and say what is missing', async () => {
    const certificate = { certificado: 'ab'.repeat(32), desde: '2026-01-01', hasta: '2026-01-31' };
    expect((await run(certificate, { ...settingsFile, baseUrl: 'sin dirección' })).result.message).toBe('La configuración del robot no tiene una dirección (baseUrl) válida del portal.');
    const { welcome: _welcome, logoutLink: _logout, ...someSelectors } = SELECTORS;
    expect((await run(certificate, { ...settingsFile, selectors: someSelectors })).result.message).toBe('A la configuración del robot le faltan selectores del portal: welcome, logoutLink.');
  });
});
