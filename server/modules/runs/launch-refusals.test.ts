import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { certificate, machineHash, sync } from '../machines/test-support.ts';
import { launch, upload, workbook } from './test-support.ts';

/**
 * The built-in robots' bad inputs are refused at launch, before anything is queued or charged (issue 21):
 * a desktop robot's period backwards, a NIF that is none, an expired certificate; a workbook with no
 * data rows or no column the robot knows. The launcher says the same first (launcherModel tests).
 */
let server: TestServer;
let ana: CookieJar;

beforeEach(async () => {
  server = await startTestServer();
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

describe('launching Descargar justificantes on a machine', () => {
  it('refuses Hasta before Desde, a NIF that is none and an expired certificate with 400 and field issues, writing nothing', async () => {
    const link = await linkPc(ana, 'despacho', 'PC del despacho');
    const now = new Date();
    const expired = certificate('CADUCADO ANA', -10, now);
    const valid = certificate('VIGENTE ANA', 200, now);
    await sync(ana, 'PC del despacho', { machineHashCode: machineHash('despacho'), digitalCertificates: [expired, valid] });
    const machineId = link.machine._id;

    const backwards = await launch(ana, 'descargar-justificantes', { certificado: valid.fingerprint, desde: '2026-03-31', hasta: '2026-03-01', nif: '1234' }, { machineId });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().issues).toEqual([
      { path: 'inputs.nif', message: 'Introduce un NIF, NIE o CIF válido' },
      { path: 'inputs.hasta', message: '«Hasta» no puede ser anterior a «Desde»' },
    ]);

    const oldCertificate = await launch(ana, 'descargar-justificantes', { certificado: expired.fingerprint, desde: '2026-03-01', hasta: '2026-03-31' }, { machineId });
    expect(oldCertificate.statusCode).toBe(400);
    expect(oldCertificate.json().issues).toEqual([{ path: 'inputs.certificado', message: expect.stringMatching(/^El certificado «CADUCADO ANA - 00000000T» caducó el \d\d\/\d\d\/\d{4}: /) }]);
    expect(server.countRows('flow_runs')).toBe(0);

    // The same inputs put right are queued for the machine: a CIF is a holder's NIF too, and one day is a period.
    const fine = await launch(ana, 'descargar-justificantes', { certificado: valid.fingerprint, desde: '2026-03-01', hasta: '2026-03-01', nif: 'B12345674' }, { machineId });
    expect(fine.statusCode, fine.body).toBe(202);
    expect(server.countRows('flow_runs')).toBe(1);
  });
});

describe('launching Validar identificadores', () => {
  it('refuses a workbook with no data rows, or with no header the robot knows, naming the expected headers; charges and writes nothing', async () => {
    const [empty] = await upload(ana, [{ name: 'vacio.xlsx', data: workbook([['Nombre', 'DNI', 'IBAN']]) }]);
    const refusedEmpty = await launch(ana, 'validar-identificadores', { workbook: [{ uploadId: empty?.id, name: 'vacio.xlsx' }], columns: { nif: 'DNI' } });
    expect(refusedEmpty.statusCode).toBe(400);
    expect(refusedEmpty.json().issues).toEqual([{ path: 'inputs.columns', message: expect.stringMatching(/^La hoja «.+» no tiene filas de datos/) }]);

    const [unknown] = await upload(ana, [{ name: 'otros.xlsx', data: workbook([['Producto', 'Precio'], ['Lápiz', 1]]) }]);
    const refusedUnknown = await launch(ana, 'validar-identificadores', { workbook: [{ uploadId: unknown?.id, name: 'otros.xlsx' }] });
    expect(refusedUnknown.statusCode).toBe(400);
    const [issue] = refusedUnknown.json().issues as { path: string; message: string }[];
    expect(issue?.path).toBe('inputs.columns');
    expect(issue?.message).toContain('No se reconoce ninguna columna del archivo');
    expect(issue?.message).toContain('«NIF/NIE»');
    expect(issue?.message).toContain('«IBAN»');

    // Mapping a column by hand names a header the robot would not find itself: that workbook is fine.
    const mapped = await launch(ana, 'validar-identificadores', { workbook: [{ uploadId: unknown?.id, name: 'otros.xlsx' }], columns: { nif: 'Producto' } });
    expect(mapped.statusCode, mapped.body).toBe(202);
    expect(server.countRows('flow_runs')).toBe(1);
    expect(server.countRows('credit_ledger')).toBe(0);
  });
});
