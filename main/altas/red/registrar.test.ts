/**
 * The registrar against the RED Online stand-in in a real Chromium, presenting a test certificate the way
 * the hosts' certificate source hands it over (a PKCS#12 in memory). Skipped without a Chromium binary,
 * except in CI.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madridDayKey } from '#shared/time/madrid.ts';
import { startStandinPortal, type StandinPortal } from '../../../standins/portal/portal.ts';
import { portalOptions } from '../../../standins/portal/test-certificates.ts';
import { screen1Page } from '../../../standins/red-online/pages.ts';
import { startStandinRedOnline, type StandinRedOnline } from '../../../standins/red-online/red-online.ts';
import { NAF_ALWAYS_IN_ALTA } from '../../../standins/red-online/rules.ts';
import { createPkcs12, createTestCertificate, testAuthority, type TestCertificate } from '../../certificates/testing/spanish-certificates.ts';
import { readAfi } from './afi-reader.ts';
import { createRedRegistrar, type RedRegistrarSettings } from './registrar.ts';
import { redRecord } from './testing/records.ts';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromiumFound = existsSync(chromiumPath);
if (!chromiumFound && process.env.CI) throw new Error(`No Chromium at ${chromiumPath} (set CHROMIUM_PATH); CI must run the RED registrar test.`);

const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const outsider = createTestCertificate({ nif: '12345678Z', keyType: 'ec', issuer: testAuthority('AC Desconocida') });
const PASSPHRASE = 'clave-de-prueba';

/** The hosts' certificate source, reduced to the certificates of this test. */
const certificates = {
  async clientCertificate(fingerprint: string) {
    const certificate = [holder, outsider].find((candidate: TestCertificate) => candidate.fingerprint === fingerprint);
    if (!certificate) throw new Error('Ese certificado no está en este equipo');
    return { pfx: Buffer.from(createPkcs12(certificate, PASSPHRASE)), passphrase: PASSPHRASE };
  },
};

describe.skipIf(!chromiumFound)(`RedRegistrar files altas in RED Online with a client certificate (${chromiumPath})`, () => {
  let red: StandinRedOnline;
  let siltra: string;
  const today = madridDayKey(new Date());

  beforeAll(async () => {
    red = await startStandinRedOnline(portalOptions());
    siltra = await mkdtemp(join(tmpdir(), 'siltra-'));
  }, 30_000);
  afterAll(async () => {
    await red?.close();
    if (siltra) await rm(siltra, { recursive: true, force: true });
  });

  function registrar(redOnlineUrl: string, stepTimeoutMs = 15_000) {
    const settings: RedRegistrarSettings = { redOnlineUrl, ignoreHTTPSErrors: true, siltraFolder: siltra, afi: { authorizationKey: '12345678' } };
    return createRedRegistrar({ certificates, settings: async () => settings, chromiumPath, now: () => new Date(), stepTimeoutMs });
  }

  it('one admitted full-time alta, one fatal #DIL answer, one part-time alta past its warning: each record its own result', async () => {
    const logs: string[] = [];
    const records = [
      redRecord({ submissionId: 'bien', fechaReal: today }),
      redRecord({ submissionId: 'ya-de-alta', worker: 'PEDRO GIL', nafProvince: NAF_ALWAYS_IN_ALTA.slice(0, 2), nafNumber: NAF_ALWAYS_IN_ALTA.slice(2), fechaReal: today }),
      redRecord({ submissionId: 'parcial', nafNumber: '2000000601', tipoContrato: '200', coeficienteParcialidad: '500', grupoCotizacion: '7', fechaReal: today }),
    ];
    const results = await registrar(red.url).register(records, holder.fingerprint, { log: (level, text) => logs.push(`${level}: ${text}`) });

    expect(results.map(({ submissionId, state }) => [submissionId, state])).toEqual([['bien', 'registered'], ['ya-de-alta', 'error'], ['parcial', 'registered']]);
    const spanishToday = today.split('-').reverse().join('/');
    expect(results[0]!.message).toMatch(new RegExp(`^0350 ALTA ADMITIDA\\. NAF 280123456742 CCC 0111 28255627528 FECHA REAL ${spanishToday}\\nRESOLUCION SOBRE RECONOCIMIENTO DE ALTA`));
    expect(results[1]!.message).toBe('3012 EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CODIGO DE CUENTA DE COTIZACION');
    expect(red.registered().map((alta) => [alta.naf, alta.ccc, alta.fechaReal, alta.holderNif, alta.grupoCotizacion, alta.coeficienteParcialidad])).toEqual([
      ['280123456742', '28255627528', today, '78816596N', '05', ''],
      ['282000000601', '28255627528', today, '78816596N', '07', '500'],
    ]);
    expect(logs).toContain('info: LUCÍA PEÑA NÚÑEZ (Panadería Martínez, S.L.): pantalla 1 (NAF, IPF y cuenta de cotización)');
    expect(logs).toContain('error: PEDRO GIL (Panadería Martínez, S.L.): RED ha rechazado el alta: 3012 EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CODIGO DE CUENTA DE COTIZACION');
    expect(logs).toContain('warn: LUCÍA PEÑA NÚÑEZ (Panadería Martínez, S.L.): aviso de RED: 9125 REVISE EL CONTENIDO DEL COEFICIENTE A TIEMPO PARCIAL; se continúa');
    expect(logs.at(-1)).toBe('info: RED Online: 2 alta(s) admitida(s), 1 con error');
  }, 90_000);

  it('stops between records when the signal aborts', async () => {
    const controller = new AbortController();
    const records = [redRecord({ submissionId: 'primera', nafNumber: '3000000172', fechaReal: today }), redRecord({ submissionId: 'segunda', nafNumber: '3000000273', fechaReal: today })];
    const logs: string[] = [];
    const results = await registrar(red.url).register(records, holder.fingerprint, {
      signal: controller.signal,
      log: (level, text) => {
        logs.push(text);
        if (text.includes('RED ha admitido el alta')) controller.abort();
      },
    });
    expect(results.map((result) => [result.submissionId, result.state])).toEqual([['primera', 'registered']]);
    expect(logs).toContain('Detenido: 1 alta(s) sin enviar a RED');
    expect(red.registered().some((alta) => alta.naf === '283000000273')).toBe(false);
  }, 90_000);

  it('a certificate RED Online does not accept fails every record with its reason', async () => {
    const results = await registrar(red.url).register([redRecord({ submissionId: 'a' }), redRecord({ submissionId: 'b' })], outsider.fingerprint, { log: () => undefined });
    expect(results).toEqual(['a', 'b'].map((submissionId) => ({
      submissionId, state: 'error', message: 'RED Online no ha aceptado el certificado: El certificado no ha sido emitido por una autoridad de certificación reconocida.',
    })));
  }, 90_000);

  it('a page that is not ATR01 fails each record with a clear message and the batch goes on', async () => {
    let portal: StandinPortal | undefined;
    try {
      portal = await startStandinPortal(portalOptions());
      const results = await registrar(portal.url).register([redRecord({ submissionId: 'a' }), redRecord({ submissionId: 'b' })], holder.fingerprint, { log: () => undefined });
      expect(results).toEqual(['a', 'b'].map((submissionId) => ({ submissionId, state: 'error', message: 'RED Online no ha mostrado la pantalla 1 del alta («Sede Electrónica de pruebas»)' })));
    } finally {
      await portal?.close();
    }
  }, 90_000);

  it('a RED Online that stops answering fails each record with the timeout message and the batch goes on', async () => {
    const { serverKey, serverCert } = portalOptions();
    // Shows screen 1, then never answers its POST.
    const silent = createServer({ key: serverKey, cert: serverCert }, (request, response) => {
      if (request.method === 'GET') response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(screen1Page({}, null));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const logs: string[] = [];
      const results = await registrar(url, 1_500).register([redRecord({ submissionId: 'a' }), redRecord({ submissionId: 'b' })], holder.fingerprint, { log: (level, text) => logs.push(`${level}: ${text}`) });
      const message = 'RED Online no ha respondido a tiempo; el alta no se ha enviado o no se ha confirmado: compruébalo en RED antes de repetirla.';
      expect(results).toEqual([{ submissionId: 'a', state: 'error', message }, { submissionId: 'b', state: 'error', message }]);
      expect(logs.filter((line) => line.startsWith('info: ') && line.includes('pantalla 1'))).toHaveLength(2);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 90_000);

  it('writeAfi puts the records in one remittance in <SILTRA>/RED/VIPTC2/AFI', async () => {
    const { file, results } = await registrar(red.url).writeAfi([redRecord()], { log: () => undefined });
    expect(file.startsWith(join(siltra, 'RED', 'VIPTC2', 'AFI'))).toBe(true);
    expect(results[0]).toMatchObject({ submissionId: 'alta-1', state: 'afi-written' });
    expect(readAfi(await readFile(file)).companies[0]!.workers[0]!.naf).toBe('280123456742');
  });
});
