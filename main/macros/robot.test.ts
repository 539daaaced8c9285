/**
 * A macro flow run by the desktop runtime, in its own child process: robot-process loads the player for a
 * 'macro-' flow id, the browser presents the chosen certificate (from the parent, over IPC), the recorded
 * password comes from this machine's store (AUTOASESOR_MACRO_SECRETS, inherited by the child), and the
 * 'macros' settings of AUTOASESOR_ROBOT_SETTINGS let it accept the test site's server certificate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACRO_DEFINITION_INPUT, macroFlowId } from '#shared/macros/to-flow.ts';
import { MACRO_SITE_PASSWORD, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { createPkcs12, createTestCertificate } from '../certificates/testing/spanish-certificates.ts';
import { createRobotRuntime } from '../robots/runtime.ts';
import { machineMacroSecretStore } from './secrets.ts';
import { chromiumFound, chromiumPath, macro, sheetsOf } from './testing.ts';

const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });

describe.skipIf(!chromiumFound)('a macro flow in the desktop runtime', () => {
  let site: MacroSite;
  let folder: string;
  const saved = { secrets: process.env.AUTOASESOR_MACRO_SECRETS, settings: process.env.AUTOASESOR_ROBOT_SETTINGS };
  beforeAll(async () => {
    site = await startMacroSite();
    folder = mkdtempSync(join(tmpdir(), 'macro-runtime-'));
    process.env.AUTOASESOR_MACRO_SECRETS = join(folder, 'secretos');
    process.env.AUTOASESOR_ROBOT_SETTINGS = JSON.stringify({ macros: { ignoreHTTPSErrors: true } });
  }, 60_000);
  afterAll(async () => {
    for (const [key, value] of [['AUTOASESOR_MACRO_SECRETS', saved.secrets], ['AUTOASESOR_ROBOT_SETTINGS', saved.settings]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await site?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('logs in with the recorded password and the chosen certificate, and writes the workbook', async () => {
    const ref = await machineMacroSecretStore().save(MACRO_SITE_PASSWORD);
    const definition = macro({
      startUrl: `${site.httpsUrl}/login`,
      certificate: { input: 'certificado', origins: [site.httpsUrl!] },
      inputs: [{ key: 'certificado', label: 'Certificado', kind: 'certificate', required: true }],
      steps: [
        { id: 'u', type: 'fill', target: 'internal:role=textbox[name="Usuario"i]', value: { kind: 'text', text: 'gestor' } },
        { id: 'p', type: 'fill', target: 'internal:role=textbox[name="Contraseña"i]', value: { kind: 'secret', ref } },
        { id: 'e', type: 'press', target: 'internal:role=textbox[name="Contraseña"i]', key: 'Enter' },
        { id: 's', type: 'extractText', target: 'internal:testid=[data-testid="bienvenida"s]', column: 'Sesión' },
        { id: 'i', type: 'click', target: 'internal:role=link[name="Inicio"i]' },
        { id: 'c', type: 'click', target: 'internal:role=link[name="Acceder con certificado"i]' },
        { id: 'n', type: 'extractText', target: 'internal:testid=[data-testid="nif-titular"s]', column: 'NIF' },
      ],
    });
    const runtime = createRobotRuntime({
      chromiumPath,
      certificates: {
        list: async () => ({ certificates: [], problems: [], folder: null }),
        setFolder: async () => null,
        unlock: async () => 0,
        clientCertificate: async (fingerprint) => {
          if (fingerprint !== holder.fingerprint) throw new Error('El certificado elegido no está en este dispositivo');
          return { pfx: Buffer.from(createPkcs12(holder, 'clave')), passphrase: 'clave' };
        },
      },
    });
    const outputFolder = join(folder, 'resultado');
    const logs: string[] = [];
    const robot = runtime.start(
      { runId: 'macro-1', flowId: macroFlowId('Prueba1'), inputs: { certificado: holder.fingerprint, [MACRO_DEFINITION_INPUT]: definition }, timeLimitSeconds: 60, startedAt: new Date().toISOString(), outputFolder },
      { log: (_level, text) => logs.push(text), progress: () => undefined },
    );
    const outcome = await robot.outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1, outputFileNames: ['resultado.xlsx'] });
    expect(logs).toContain('Paso 6: Hacer clic en enlace «Acceder con certificado»');
    expect(sheetsOf(new Uint8Array(await readFile(join(outputFolder, 'resultado.xlsx'))))['Resultado']).toEqual([['Sesión', 'NIF'], ['Hola, gestor', '78816596N']]);
  }, 90_000);
});
