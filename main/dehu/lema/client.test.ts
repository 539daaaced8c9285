import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate, testAuthority } from '../../certificates/testing/spanish-certificates.ts';
import { startStandinDehu, type StandinDehu, type StandinDehuOptions } from '../../../standins/dehu/dehu.ts';
import type { StandinEnvio } from '../../../standins/dehu/mailbox.ts';
import { dehuOptions } from '../../../standins/dehu/test-certificates.ts';
import { serverAuthority, SERVER_NAME } from '../../../standins/portal/test-certificates.ts';
import { LemaError, type LemaClientOptions } from '../types.ts';
import { createLemaClient } from './client.ts';
import { formatLemaDate, latestFechaHasta } from './dates.ts';
import { readLemaAnswer } from './response.ts';
import { readSigningIdentity, signedEnvelope } from './signer.ts';
import { soapAction, writeOperation, type Fields, type LemaOperation } from './soap.ts';
import { postSoap } from './transport.ts';

const DAY = 86_400_000;
const PASSWORD = 'clave-de-prueba';
const person = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const personPfx = Buffer.from(createPkcs12(person, PASSWORD));
const representative = createTestCertificate({ kind: 'representative', givenName: 'PABLO', surnames: 'MARTIN SANZ', nif: '12345678Z', cif: 'B12345674', keyType: 'rsa' });
const representativePfx = Buffer.from(createPkcs12(representative, PASSWORD));

const standins: StandinDehu[] = [];
async function standin(overrides: Partial<StandinDehuOptions> = {}): Promise<StandinDehu> {
  const started = await startStandinDehu({ ...dehuOptions(), ...overrides });
  standins.push(started);
  return started;
}
afterAll(async () => {
  await Promise.all(standins.map((started) => started.close()));
});

function clientOf(dehu: StandinDehu, extra: Partial<LemaClientOptions> = {}) {
  return createLemaClient({ lemaUrl: dehu.lemaUrl, realizadasUrl: dehu.realizadasUrl, pfx: personPfx, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME, ...extra });
}

/** A signed call with fields exactly as given (to see what the stand-in does with bad dates). */
async function rawCall(dehu: StandinDehu, url: string, operation: LemaOperation, fields: Fields) {
  const identity = await readSigningIdentity(personPfx, PASSWORD);
  const envelope = signedEnvelope((body) => writeOperation(body, operation, fields), identity, new Date());
  const http = await postSoap(url, envelope, soapAction(operation), { pfx: personPfx, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME, timeoutMs: 10_000 });
  return readLemaAnswer(http, ['000', '200']);
}

function envio(index: number, disposicion: Date, extra: Partial<StandinEnvio> = {}): StandinEnvio {
  return {
    identificador: `N-TEST-${String(index).padStart(5, '0')}`,
    codigoOrigen: 1,
    titular: { nif: '78816596N', nombre: 'ELENA RODRIGUEZ GARCIA' },
    concepto: `Requerimiento de información ${index}`,
    organismoEmisor: { codigo: 'EA0028512', nombre: 'Agencia Estatal de Administración Tributaria' },
    fechaPuestaDisposicion: disposicion,
    tipoEnvio: 2,
    vinculo: 1,
    ...extra,
  };
}

const lastWeek = () => ({ fechaDesde: new Date(Date.now() - 9 * DAY), fechaHasta: new Date() });

describe('LEMA client against the DEHÚ stand-in (mutual TLS, WS-Security)', () => {
  let dehu: StandinDehu;
  beforeAll(async () => {
    dehu = await standin({ envios: [] });
  });

  it('Localiza follows every page (250 envíos, pages of 100), with fechaHasta capped to yesterday', async () => {
    const paged = await standin({ envios: Array.from({ length: 250 }, (_, index) => envio(index, new Date(Date.now() - 2 * DAY - index * 60_000))) });
    const found = await clientOf(paged).localiza(lastWeek());
    expect(found).toHaveLength(250);
    expect(new Set(found.map((item) => item.identificador)).size).toBe(250);
    expect(paged.requests.filter((request) => request.operation === 'Localiza')).toEqual(Array.from({ length: 3 }, () => ({ operation: 'Localiza', nif: '78816596N', code: '000' })));
    expect(found[0]).toMatchObject({ codigoOrigen: 1, tipoEnvio: 2, vinculo: 1, titular: { nif: '78816596N' }, organismoEmisor: { codigo: 'EA0028512' }, codigoProcedimiento: null });
    expect(found[0]!.fechaPuestaDisposicion).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
  });

  it('reads the sample mailboxes: the procedure code from metadatosPublicos, comunicaciones, and expired ones as EXPIRADA', async () => {
    const samples = await standin();
    const client = clientOf(samples);
    const pending = await client.localiza({ fechaDesde: new Date(Date.now() - 20 * DAY), fechaHasta: new Date() });
    expect(pending.map((item) => item.identificador).sort()).toEqual(['C-AEAT-2026-000104', 'N-AEAT-2026-000101', 'N-AEAT-2026-000102', 'N-DGT-2026-000103']);
    expect(pending.find((item) => item.identificador === 'N-AEAT-2026-000101')?.codigoProcedimiento).toBe('GC27');
    expect(pending.find((item) => item.identificador === 'C-AEAT-2026-000104')?.tipoEnvio).toBe(1);
    const company = createLemaClient({ lemaUrl: samples.lemaUrl, realizadasUrl: samples.realizadasUrl, pfx: representativePfx, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME });
    const realizadas = await company.localizaRealizadas({ fechaDesde: new Date(Date.now() - 20 * DAY), fechaHasta: new Date() });
    expect(realizadas).toEqual([expect.objectContaining({ identificador: 'N-TGSS-2026-000203', estado: 'EXPIRADA', receptor: null })]);
  });

  it('PeticionAcceso returns the exact PDF, its annexes and acuse, and the envío moves to realizadas as ACEPTADA', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 3000 }, (_, index) => index % 256)), Buffer.from('\r\n--not-a-boundary\r\n%%EOF')]);
    const annex = Buffer.from('%PDF-1.4 anexo\n%%EOF');
    const item = envio(900, new Date(Date.now() - 3 * DAY), { pdf, anexos: [{ nombre: 'anexo-1.pdf', bytes: annex }] });
    dehu.add(item);
    const client = clientOf(dehu);
    const access = await client.peticionAcceso({ identificador: item.identificador, codigoOrigen: 1, concepto: item.concepto, nifReceptor: '78816596N', nombreReceptor: 'ELENA RODRIGUEZ GARCIA' });
    expect(Buffer.from(access.documento.bytes).equals(pdf)).toBe(true);
    expect(access.documento).toMatchObject({ name: `${item.identificador}.pdf`, mimeType: 'application/pdf' });
    expect(access.csvResguardo).toMatch(/^CSV[0-9A-F]{16}$/);
    expect(Math.abs(Date.parse(access.fechaEvento) - Date.now())).toBeLessThan(60_000);
    expect(access.anexos).toEqual([{ name: 'anexo-1.pdf', referencia: expect.any(String) }]);

    const fetchedAnnex = await client.consultaAnexos({ identificador: item.identificador, codigoOrigen: 1, nifReceptor: '78816596N', referencia: access.anexos[0]!.referencia });
    expect(Buffer.from(fetchedAnnex.bytes).equals(annex)).toBe(true);
    const byCsv = await client.consultaAcusePdf({ identificador: item.identificador, codigoOrigen: 1, nifReceptor: '78816596N', csvResguardo: access.csvResguardo, referencia: null });
    expect(Buffer.from(byCsv.bytes).toString('latin1')).toContain(access.csvResguardo);
    const byReference = await client.consultaAcusePdf({ identificador: item.identificador, codigoOrigen: 1, nifReceptor: '78816596N', csvResguardo: null, referencia: access.referenciaPdfAcuse });
    expect(Buffer.from(byReference.bytes).equals(Buffer.from(byCsv.bytes))).toBe(true);

    expect(dehu.realizadas('78816596N')).toEqual([expect.objectContaining({ estado: 'ACEPTADA', csvResguardo: access.csvResguardo, receptor: { nombre: 'ELENA RODRIGUEZ GARCIA', nif: '78816596N' } })]);
    expect((await client.localiza(lastWeek())).map((pending) => pending.identificador)).not.toContain(item.identificador);
    const realizadas = await client.localizaRealizadas({ fechaDesde: new Date(Date.now() - 90 * DAY), fechaHasta: new Date() });
    expect(realizadas).toEqual([expect.objectContaining({ identificador: item.identificador, estado: 'ACEPTADA', csvResguardo: access.csvResguardo, receptor: { nombre: 'ELENA RODRIGUEZ GARCIA', nif: '78816596N' } })]);

    // A second access to the same envío is refused: it is no longer pending.
    await expect(client.peticionAcceso({ identificador: item.identificador, codigoOrigen: 1, concepto: item.concepto, nifReceptor: '78816596N', nombreReceptor: 'ELENA RODRIGUEZ GARCIA' })).rejects.toMatchObject({ code: '4201' });
  });

  it("accepts '200' and '000' by default, and only the codes it is told", async () => {
    const twoHundred = await standin({ successCode: '200', envios: [envio(1, new Date(Date.now() - 2 * DAY))] });
    expect(await clientOf(twoHundred).localiza(lastWeek())).toHaveLength(1);
    const error = await clientOf(twoHundred, { successCodes: ['000'] }).localiza(lastWeek()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LemaError);
    expect(error).toMatchObject({ code: '200' });
    expect(await clientOf(await standin({ successCode: '000', envios: [] })).localiza(lastWeek())).toEqual([]);
  });

  it('an RSA certificate (like FNMT\'s) signs and connects too, and its mailbox is the entity\'s NIF', async () => {
    const company = createLemaClient({ lemaUrl: dehu.lemaUrl, realizadasUrl: dehu.realizadasUrl, pfx: representativePfx, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME });
    expect(await company.localiza(lastWeek())).toEqual([]);
    expect(dehu.requests.at(-1)).toEqual({ operation: 'Localiza', nif: 'B12345674', code: '000' });
  });

  it('4103 (certificate not authorised) surfaces as a LemaError with the code and DEHÚ\'s text', async () => {
    const restricted = await standin({ authorizedNifs: ['B12345674'] });
    await expect(clientOf(restricted).localiza(lastWeek())).rejects.toMatchObject({ code: '4103', message: 'DEHÚ: Error en el control de acceso, el certificado utilizado no está autorizado (4103)' });
  });

  it('4225 once the query limit is reached', async () => {
    const limited = await standin({ queryLimit: 1, envios: [] });
    await clientOf(limited).localiza(lastWeek());
    await expect(clientOf(limited).localiza(lastWeek())).rejects.toMatchObject({ code: '4225' });
  });

  it('dates: the stand-in takes the client\'s (Madrid offset, no ms) and refuses milliseconds (2001), UTC or today (4207), realizadas over 30 days back (4224)', async () => {
    const yesterday = latestFechaHasta(new Date());
    const weekAgo = new Date(yesterday.getTime() - 7 * DAY);
    expect(formatLemaDate(yesterday)).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:59\+0[12]:00$/);
    await expect(rawCall(dehu, dehu.lemaUrl, 'Localiza', [['fechaDesde', formatLemaDate(weekAgo)], ['fechaHasta', formatLemaDate(yesterday)]])).resolves.toBeDefined();
    const withMilliseconds = formatLemaDate(weekAgo).replace(/(:\d{2})(\+)/, '$1.000$2');
    await expect(rawCall(dehu, dehu.lemaUrl, 'Localiza', [['fechaDesde', withMilliseconds]])).rejects.toMatchObject({ code: '2001' });
    await expect(rawCall(dehu, dehu.lemaUrl, 'Localiza', [['fechaDesde', weekAgo.toISOString().slice(0, 19)]])).rejects.toMatchObject({ code: '2001' });
    await expect(rawCall(dehu, dehu.lemaUrl, 'Localiza', [['fechaDesde', `${weekAgo.toISOString().slice(0, 19)}+00:00`]])).rejects.toMatchObject({ code: '4207' });
    await expect(rawCall(dehu, dehu.lemaUrl, 'Localiza', [['fechaHasta', formatLemaDate(new Date())]])).rejects.toMatchObject({ code: '4207' });
    await expect(rawCall(dehu, dehu.realizadasUrl, 'LocalizaRealizadas', [['fechaDesde', formatLemaDate(new Date(Date.now() - 40 * DAY))], ['fechaHasta', formatLemaDate(yesterday)]])).rejects.toMatchObject({ code: '4224' });
    // The client clamps what it is asked for, so the same periods pass.
    await expect(clientOf(dehu).localizaRealizadas({ fechaDesde: new Date(Date.now() - 40 * DAY), fechaHasta: new Date(Date.now() + DAY) })).resolves.toBeDefined();
  });

  it('a SOAP Fault surfaces with its faultstring and faultcode (an unsigned request)', async () => {
    const http = await postSoap(dehu.lemaUrl, `<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><Localiza xmlns="http://administracion.gob.es/punto-unico-notificaciones/localiza"/></soapenv:Body></soapenv:Envelope>`, soapAction('Localiza'), { pfx: personPfx, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME, timeoutMs: 10_000 });
    expect(() => readLemaAnswer(http, ['000'])).toThrow(expect.objectContaining({ code: 'wsse:InvalidSecurity', message: expect.stringContaining('Falta la cabecera wsse:Security') }));
  });

  it('a certificate from an unknown CA is refused, and a connection failure is a Spanish LemaError', async () => {
    const stranger = createTestCertificate({ keyType: 'ec', issuer: testAuthority('AC Desconocida') });
    const client = createLemaClient({ lemaUrl: dehu.lemaUrl, realizadasUrl: dehu.realizadasUrl, pfx: Buffer.from(createPkcs12(stranger, PASSWORD)), passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME });
    await expect(client.localiza(lastWeek())).rejects.toMatchObject({ code: 'wsse:InvalidSecurityToken' });
    const closed = createLemaClient({ lemaUrl: 'https://127.0.0.1:1/ws/v2/lema', realizadasUrl: 'https://127.0.0.1:1/ws/v1/realizadas', pfx: personPfx, passphrase: PASSWORD });
    await expect(closed.localiza(lastWeek())).rejects.toMatchObject({ code: null, message: 'No se puede contactar con DEHÚ (https://127.0.0.1:1/ws/v2/lema).' });
  });
});
