import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCertificate, privateKeyPem, testAuthority, type TestCertificate } from '../../main/certificates/testing/spanish-certificates.ts';
import { documentsFor } from './documents.ts';
import { startStandinPortal, type StandinPortal } from './portal.ts';
import { SERVER_NAME, portalOptions, serverAuthority } from './test-certificates.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

let portal: StandinPortal;
const elena = createTestCertificate({ givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', nif: '78816596N', keyType: 'rsa' });

beforeAll(async () => {
  portal = await startStandinPortal(portalOptions());
});
afterAll(async () => {
  await portal.close();
});

/** A GET over a fresh TLS connection, presenting `certificate` (if any) and trusting only the portal's CA. */
function get(path: string, certificate?: TestCertificate, cookie?: string): Promise<Reply> {
  const { port } = new URL(portal.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: SERVER_NAME,
        ca: serverAuthority().pem,
        agent: false,
        ...(certificate ? { cert: certificate.pem, key: privateKeyPem(certificate) } : {}),
        headers: cookie ? { cookie } : {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString('utf8') });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function logIn(certificate: TestCertificate): Promise<{ cookie: string; page: Reply }> {
  const page = await get('/acceso', certificate);
  const setCookie = ([] as string[]).concat(page.headers['set-cookie'] ?? []);
  return { cookie: (setCookie[0] ?? '').split(';')[0]!, page };
}

describe('stand-in certificate portal', () => {
  it('shows a landing page with the certificate login link, even without a certificate', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<a id="acceder-certificado" href="\/acceso">Acceder con certificado<\/a>/);
  });

  it('logs in with a persona física certificate and greets the holder by CN and NIF', async () => {
    const { cookie, page } = await logIn(elena);
    expect(page.status).toBe(200);
    expect(cookie).toMatch(/^SEDE_SESION=.+/);
    expect(page.text).toContain('Bienvenido/a, RODRIGUEZ GARCIA ELENA - 78816596N');
    expect(page.text).toContain('<span data-testid="nif-titular">78816596N</span>');
  });

  it('reads the NIF of an EC-key representative certificate from its serialNumber', async () => {
    const representative = createTestCertificate({ kind: 'representative', nif: '12345678Z', givenName: 'JUAN', surnames: 'PEREZ LOPEZ', keyType: 'ec' });
    const { page } = await logIn(representative);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span data-testid="nif-titular">12345678Z</span>');
  });

  it('shows a labelled search form prefilled with the holder NIF', async () => {
    const { cookie } = await logIn(elena);
    const page = await get('/buscar', elena, cookie);
    expect(page.status).toBe(200);
    for (const [id, label] of [['nif', 'NIF del titular'], ['fecha-desde', 'Fecha desde'], ['fecha-hasta', 'Fecha hasta']]) {
      expect(page.text).toContain(`<label for="${id}">${label}</label>`);
      expect(page.text).toContain(`id="${id}"`);
    }
    expect(page.text).toContain('value="78816596N"');
  });

  it('lists the holder documents within the date range as table rows', async () => {
    const { cookie } = await logIn(elena);
    const all = documentsFor('78816596N');
    const from = all[1]!.date;
    const to = all[4]!.date;
    const expected = all.filter((document) => document.date >= from && document.date <= to);
    const page = await get(`/resultados?nif=78816596N&desde=${from}&hasta=${to}`, elena, cookie);
    expect(page.status).toBe(200);
    const ids = [...page.text.matchAll(/<td data-testid="id-justificante">([^<]+)<\/td>/g)].map((match) => match[1]);
    expect(ids).toEqual(expected.map((document) => document.id));
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(page.text).toContain(`<span data-testid="numero-resultados">${expected.length}</span>`);
    expect(page.text).toContain('<table id="tabla-resultados">');
  });

  it('refuses to search another NIF or a reversed date range, with a Spanish message', async () => {
    const { cookie } = await logIn(elena);
    const otherNif = await get('/resultados?nif=12345678Z', elena, cookie);
    expect(otherNif.status).toBe(400);
    expect(otherNif.text).toContain('El NIF consultado no coincide con el del certificado.');
    const reversed = await get('/resultados?nif=78816596N&desde=2026-12-01&hasta=2026-01-01', elena, cookie);
    expect(reversed.status).toBe(400);
    expect(reversed.text).toContain('La fecha desde no puede ser posterior a la fecha hasta.');
  });

  it('downloads a justificante as a real PDF naming the NIF and the document id', async () => {
    const { cookie } = await logIn(elena);
    const document = documentsFor('78816596N')[0]!;
    const reply = await get(`/justificante/${document.id}.pdf`, elena, cookie);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/pdf');
    const pdf = reply.body.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf).toContain(`NIF del titular: 78816596N`);
    expect(pdf).toContain(`Identificador: ${document.id}`);
    // The xref offsets must point at the objects, or readers call the file damaged.
    const startxref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    offsets.forEach((offset, index) => expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true));
  });

  it('does not serve another holder document', async () => {
    const { cookie } = await logIn(elena);
    const someoneElse = documentsFor('12345678Z')[0]!;
    const reply = await get(`/justificante/${someoneElse.id}.pdf`, elena, cookie);
    expect(reply.status).toBe(404);
  });

  it('answers 403 with a clear page when no certificate is presented', async () => {
    const page = await get('/acceso');
    expect(page.status).toBe(403);
    expect(page.text).toContain('No se ha presentado ningún certificado');
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('answers 403 for a certificate from a CA it does not trust', async () => {
    const stranger = createTestCertificate({ issuer: testAuthority('AC Desconocida'), keyType: 'ec' });
    const page = await get('/acceso', stranger);
    expect(page.status).toBe(403);
    expect(page.text).toContain('El certificado no ha sido emitido por una autoridad de certificación reconocida.');
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('answers 403 for an expired certificate', async () => {
    const expired = createTestCertificate({ keyType: 'ec', notBefore: new Date(Date.UTC(2020, 0, 1)), notAfter: new Date(Date.UTC(2021, 0, 1)) });
    const page = await get('/acceso', expired);
    expect(page.status).toBe(403);
    expect(page.text).toContain('El certificado ha caducado.');
  });

  it('redirects to the landing without a session, or with another certificate\'s session', async () => {
    const noSession = await get('/buscar', elena);
    expect(noSession.status).toBe(302);
    expect(noSession.headers.location).toBe('/');
    const { cookie } = await logIn(elena);
    const other = createTestCertificate({ nif: '12345678Z', keyType: 'ec' });
    const borrowed = await get('/resultados', other, cookie);
    expect(borrowed.status).toBe(302);
    expect(borrowed.headers.location).toBe('/');
  });
});
