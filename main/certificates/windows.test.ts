import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localCertificateSchema } from '#shared/certificates/certificate.ts';
import { CommandError } from './command.ts';
import type { CommandOutput, RunCommand } from './command.ts';
import { listWindowsCertificates, POWERSHELL, POWERSHELL_ARGS } from './windows.ts';

/**
 * Fixtures: what `powershell.exe -Command <LIST_WINDOWS_CERTIFICATES_SCRIPT>` prints under Windows PowerShell 5.1
 * (BOM, CRLF, 4-space indents, two spaces after each colon, ISO dates from ToString('o')), with test certificates
 * made by fixtures/certificates.ts: an FNMT person with a key, the FNMT intermediate without one, a representative
 * with a key, the firm's own CA with a key, an IIS localhost server certificate and a colleague's public certificate.
 */
const storeOutput = readFileSync(new URL('./fixtures/windows-my-store.json', import.meta.url), 'utf8');
const singleOutput = readFileSync(new URL('./fixtures/windows-my-store-single.json', import.meta.url), 'utf8');

function replying(output: Partial<CommandOutput>): RunCommand & { calls: [string, readonly string[]][] } {
  const calls: [string, readonly string[]][] = [];
  const run = async (file: string, args: readonly string[]) => {
    calls.push([file, args]);
    return { exitCode: 0, stdout: '', stderr: '', ...output };
  };
  return Object.assign(run, { calls });
}

describe('listWindowsCertificates', () => {
  it('keeps the personal certificates with a private key that can authenticate a client', async () => {
    const run = replying({ stdout: storeOutput });
    const { certificates, problems } = await listWindowsCertificates(run);

    expect(run.calls).toEqual([[POWERSHELL, POWERSHELL_ARGS]]);
    expect(problems).toEqual([]);
    expect(certificates.map((certificate) => [certificate.commonName, certificate.kind, certificate.nifVat, certificate.holderNif])).toEqual([
      ['MUÑOZ PEÑA ELENA - 78816596N', 'person', '78816596N', null],
      ['12345678Z JUAN GARCÍA (R: B12345674)', 'representative', 'B12345674', '12345678Z'],
    ]);
    expect(certificates[0]).toMatchObject({
      store: 'windows',
      location: '961B09EAA4D138C5775B722B9B067F73FB5ABB2F',
      serialNumber: '3C1D9A7E21F04B8C5D6E',
      issuer: 'AC FNMT Usuarios',
      notBefore: '2024-03-04T09:12:31.000Z',
      notAfter: '2028-03-04T09:12:31.000Z',
    });
    for (const certificate of certificates) expect(localCertificateSchema.safeParse(certificate).success).toBe(true);
  });

  it('reads a lone object (one certificate piped into ConvertTo-Json) and an empty store', async () => {
    expect((await listWindowsCertificates(replying({ stdout: singleOutput }))).certificates.map((certificate) => certificate.nifVat)).toEqual(['78816596N']);
    expect(await listWindowsCertificates(replying({ stdout: '' }))).toEqual({ certificates: [], problems: [] });
    expect(await listWindowsCertificates(replying({ stdout: '[]\r\n' }))).toEqual({ certificates: [], problems: [] });
  });

  it('reports a certificate it cannot read and still lists the others', async () => {
    const entries = JSON.parse(storeOutput.replace(/^\uFEFF/, '')) as { Der: string; Thumbprint: string; FriendlyName: string }[];
    const broken = entries[2];
    if (broken === undefined) throw new Error('fixture changed');
    broken.Der = broken.Der.slice(0, 200);
    const { certificates, problems } = await listWindowsCertificates(replying({ stdout: JSON.stringify(entries) }));

    expect(certificates.map((certificate) => certificate.nifVat)).toEqual(['78816596N']);
    expect(problems).toEqual([{
      code: 'UNREADABLE',
      store: 'windows',
      source: broken.Thumbprint,
      message: 'El certificado no se puede leer: sus datos no corresponden a su huella (Representante Asesoría Ejemplo)',
    }]);
  });

  it('reports the store as unavailable when PowerShell is missing, fails or answers nonsense', async () => {
    const missing: RunCommand = async () => { throw new CommandError('not-found', 'No se encontró el programa powershell.exe'); };
    const cases: [RunCommand, string][] = [
      [missing, 'No se pudo leer el almacén de certificados de Windows: No se encontró el programa powershell.exe'],
      [replying({ exitCode: 1, stderr: 'Get-ChildItem : No se encuentra la unidad.\r\nEn línea: 1' }), 'No se pudo leer el almacén de certificados de Windows: PowerShell terminó con el código 1 (Get-ChildItem : No se encuentra la unidad.)'],
      [replying({ stdout: 'Get-ChildItem : Acceso denegado' }), 'No se pudo leer el almacén de certificados de Windows: PowerShell devolvió una respuesta que no se entiende'],
    ];
    for (const [run, message] of cases) {
      expect(await listWindowsCertificates(run)).toEqual({
        certificates: [],
        problems: [{ code: 'STORE_UNAVAILABLE', store: 'windows', source: 'Almacén de Windows', message }],
      });
    }
  });
});
