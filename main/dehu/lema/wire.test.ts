import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate } from '../../certificates/testing/spanish-certificates.ts';
import { portalOptions, serverAuthority, SERVER_NAME } from '../../../standins/portal/test-certificates.ts';
import { earliestRealizadasFechaDesde, formatLemaDate, latestFechaHasta } from './dates.ts';
import { procedureCodeFrom } from './envios.ts';
import { readMultipartRelated } from './multipart.ts';
import { postSoap } from './transport.ts';

const pfx = Buffer.from(createPkcs12(createTestCertificate({ keyType: 'ec' }), 'clave'));

describe('LEMA dates', () => {
  it('are Madrid wall-clock time with its offset and no milliseconds', () => {
    expect(formatLemaDate(new Date('2026-11-25T22:59:59.999Z'))).toBe('2026-11-25T23:59:59+01:00');
    expect(formatLemaDate(new Date('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00:00+02:00');
  });
  it('fechaHasta is at most yesterday 23:59:59, realizadas start at most 29 Madrid days back', () => {
    expect(formatLemaDate(latestFechaHasta(new Date('2026-11-26T00:30:00+01:00')))).toBe('2026-11-25T23:59:59+01:00');
    expect(formatLemaDate(earliestRealizadasFechaDesde(new Date('2026-11-26T10:00:00+01:00')))).toBe('2026-10-28T00:00:00+01:00');
  });
});

describe('procedure code from metadatosPublicos', () => {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  it('is read from JSON, XML or key=value, and null otherwise', () => {
    expect(procedureCodeFrom(base64('{"codigoProcedimiento":"GC27"}'))).toBe('GC27');
    expect(procedureCodeFrom(base64('<m><codProcedimiento>RA02</codProcedimiento></m>'))).toBe('RA02');
    expect(procedureCodeFrom(base64('origen=AEAT;codigoProcedimiento=G302'))).toBe('G302');
    expect(procedureCodeFrom(base64('{"organismo":"AEAT"}'))).toBeNull();
    expect(procedureCodeFrom(base64('texto libre'))).toBeNull();
    expect(procedureCodeFrom(null)).toBeNull();
  });
});

describe('multipart/related reader', () => {
  it('finds the root by start and the parts by Content-ID, keeping binary bytes intact', () => {
    const binary = Buffer.from([0, 13, 10, 45, 45, 255, 13, 10]);
    const body = Buffer.concat([
      Buffer.from('--b1\r\nContent-Type: application/pdf\r\nContent-ID: <doc@x>\r\n\r\n'), binary,
      Buffer.from('\r\n--b1\r\nContent-Type: text/xml\r\nContent-ID: <root@x>\r\n\r\n<Envelope/>\r\n--b1--\r\n'),
    ]);
    const message = readMultipartRelated('multipart/related; type="text/xml"; boundary=b1; start="<root@x>"', body);
    expect(message?.root.toString()).toBe('<Envelope/>');
    expect(message?.parts.get('doc@x')?.bytes.equals(binary)).toBe(true);
    expect(readMultipartRelated('text/xml', body)).toBeNull();
  });
});

describe('LEMA transport', () => {
  it('does not follow a redirect (it names the URL and where it was sent), caps the answer, and honours an abort', async () => {
    const { serverKey, serverCert } = portalOptions();
    const server = createServer({ key: serverKey, cert: serverCert }, (request, response) => {
      if (request.url === '/big') {
        response.writeHead(200, { 'content-type': 'text/xml' });
        response.end(Buffer.alloc(4096, 'x'));
        return;
      }
      response.writeHead(301, { location: 'https://se-gd-dehuws.redsara.es/ws/v2/lema' });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/ws/v2/lema`;
    try {
      await expect(postSoap(url, '<x/>', 'Localiza', { pfx, passphrase: 'clave', ca: [serverAuthority().pem], servername: SERVER_NAME, timeoutMs: 5000 })).rejects.toMatchObject({
        code: null,
        message: `DEHÚ ha redirigido la petición (301) de ${url} a https://se-gd-dehuws.redsara.es/ws/v2/lema: revisa la dirección configurada.`,
      });
      await expect(postSoap(url.replace('/ws/v2/lema', '/big'), '<x/>', 'Localiza', { pfx, passphrase: 'clave', ca: [serverAuthority().pem], servername: SERVER_NAME, timeoutMs: 5000, maxBytes: 1024 })).rejects.toMatchObject({
        message: expect.stringContaining('DEHÚ ha enviado una respuesta demasiado grande'),
      });
      const aborted = new AbortController();
      aborted.abort();
      await expect(postSoap(url, '<x/>', 'Localiza', { pfx, passphrase: 'clave', timeoutMs: 5000 }, aborted.signal)).rejects.toMatchObject({ message: 'Se ha cancelado la consulta a DEHÚ.' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
