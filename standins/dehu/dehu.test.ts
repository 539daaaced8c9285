import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate } from '../../main/certificates/testing/spanish-certificates.ts';
import { createLemaClient } from '../../main/dehu/lema/client.ts';
import { childOf, readDocument, readLemaAnswer } from '../../main/dehu/lema/response.ts';
import { readSigningIdentity, signedEnvelope } from '../../main/dehu/lema/signer.ts';
import { soapAction, writeOperation, type Fields, type LemaOperation } from '../../main/dehu/lema/soap.ts';
import { postSoap } from '../../main/dehu/lema/transport.ts';
import { serverAuthority, SERVER_NAME } from '../portal/test-certificates.ts';
import { startStandinDehu, type StandinDehu } from './dehu.ts';
import { dehuOptions, sampleEnvios } from './test-certificates.ts';

const DAY = 86_400_000;
const PASSWORD = 'clave';
const elena = Buffer.from(createPkcs12(createTestCertificate({ nif: '78816596N', keyType: 'ec' }), PASSWORD));
const other = Buffer.from(createPkcs12(createTestCertificate({ nif: '12345678Z', givenName: 'PABLO', surnames: 'MARTIN SANZ', keyType: 'ec' }), PASSWORD));
const tls = (pfx: Buffer) => ({ pfx, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME, timeoutMs: 10_000 });

let clock = Date.now();
let dehu: StandinDehu;
beforeAll(async () => {
  dehu = await startStandinDehu({ ...dehuOptions(new Date(clock)), now: () => new Date(clock) });
});
afterAll(() => dehu.close());

async function call(url: string, operation: LemaOperation, fields: Fields, signer = elena, connection = elena, action = soapAction(operation)) {
  const envelope = signedEnvelope((body) => writeOperation(body, operation, fields), await readSigningIdentity(signer, PASSWORD), new Date(clock));
  return postSoap(url, envelope, action, tls(connection));
}

describe('DEHÚ stand-in', () => {
  it('refuses a request signed by a certificate other than the TLS one', async () => {
    const http = await call(dehu.lemaUrl, 'Localiza', [], other, elena);
    expect(() => readLemaAnswer(http, ['000'])).toThrow(expect.objectContaining({ code: 'wsse:FailedAuthentication' }));
  });

  it('takes SOAPAction bare or as the full URL, and refuses one for another operation', async () => {
    expect(readLemaAnswer(await call(dehu.lemaUrl, 'Localiza', [], elena, elena, 'Localiza'), ['000']).result).toBeDefined();
    const wrong = await call(dehu.lemaUrl, 'Localiza', [], elena, elena, soapAction('PeticionAcceso'));
    expect(() => readLemaAnswer(wrong, ['000'])).toThrow(expect.objectContaining({ code: 'soapenv:Client' }));
  });

  it('serves only its operations on each path', async () => {
    const http = await call(dehu.lemaUrl, 'LocalizaRealizadas', []);
    expect(() => readLemaAnswer(http, ['000'])).toThrow(expect.objectContaining({ code: 'soapenv:Client', message: expect.stringContaining('Operación no disponible') }));
  });

  it('ConsultaRealizadas answers the opened notice as an MTOM part', async () => {
    const client = createLemaClient({ lemaUrl: dehu.lemaUrl, realizadasUrl: dehu.realizadasUrl, pfx: elena, passphrase: PASSWORD, ca: [serverAuthority().pem], servername: SERVER_NAME, now: () => new Date(clock) });
    const sample = sampleEnvios(new Date(clock)).find((envio) => envio.identificador === 'N-AEAT-2026-000102')!;
    const access = await client.peticionAcceso({ identificador: sample.identificador, codigoOrigen: sample.codigoOrigen, concepto: sample.concepto, nifReceptor: '78816596N', nombreReceptor: 'ELENA RODRIGUEZ GARCIA' });
    const http = await call(dehu.realizadasUrl, 'ConsultaRealizadas', [['identificador', sample.identificador], ['codigoOrigen', 1], ['nifPeticion', '78816596N'], ['nombrePeticion', 'ELENA RODRIGUEZ GARCIA'], ['concepto', sample.concepto]]);
    expect(http.contentType).toContain('application/xop+xml');
    const { result, attachments } = readLemaAnswer(http, ['000']);
    const document = readDocument(childOf(result, 'documento'), attachments, { name: 'nombre', content: 'contenido', fallbackName: 'x.pdf' });
    expect(Buffer.from(document.bytes).equals(Buffer.from(access.documento.bytes))).toBe(true);
  });

  it('a concepto that does not match is 4204, and a pending notificación expires after 10 days by its clock', async () => {
    const sample = sampleEnvios(new Date(clock)).find((envio) => envio.identificador === 'N-DGT-2026-000103')!;
    const http = await call(dehu.lemaUrl, 'PeticionAcceso', [['identificador', sample.identificador], ['codigoOrigen', 3], ['nifReceptor', '78816596N'], ['nombreReceptor', 'ELENA'], ['evento', 1], ['concepto', 'Otro concepto']]);
    expect(() => readLemaAnswer(http, ['000'])).toThrow(expect.objectContaining({ code: '4204' }));
    expect(dehu.realizadas('78816596N').map((realizada) => realizada.envio.identificador)).not.toContain(sample.identificador);
    clock += 2 * DAY;
    expect(dehu.realizadas('78816596N')).toContainEqual(expect.objectContaining({ estado: 'EXPIRADA', envio: expect.objectContaining({ identificador: sample.identificador }) }));
    // A comunicación has no deadline.
    expect(dehu.realizadas('78816596N').map((realizada) => realizada.envio.identificador)).not.toContain('C-AEAT-2026-000104');
    expect(dehu.requests.filter((request) => request.operation === 'PeticionAcceso').map((request) => request.code)).toContain('4204');
  });
});
